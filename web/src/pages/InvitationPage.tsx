import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { getToken } from '../api/client';
import { useSession } from '../session';
import { Loading } from '../shell/Loading';
import { acceptInvitation, keepPendingInvitation } from './pendingInvitation';

/**
 * The link of an invitation e-mail. Signed in, it joins the plan at once (with the account of the invited address) and
 * opens it. Signed out, the key waits in this tab while the person signs in or signs up at Login, with the invited
 * address filled in: a sign-in then joins with the key, a sign-up's confirmation link joins by itself.
 */
export default function InvitationPage() {
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const email = params.get('email') ?? '';
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const me = getToken() ? await refresh() : null;
      if (!me) {
        if (key) keepPendingInvitation(key);
        navigate(`/login?invited=${encodeURIComponent(email)}`, { replace: true });
        return;
      }
      const planId = key ? await acceptInvitation(key) : null;
      await refresh();
      navigate(planId ? `/business-plans/${planId}/pl` : '/', { replace: true });
    })();
  }, [email, key, navigate, refresh]);

  return <Loading />;
}
