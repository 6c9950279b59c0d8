import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { landingPathFor, useSession } from '../session';
import { Loading } from '../shell/Loading';
import { dropPendingInvitation } from './pendingInvitation';
import { LanguageSwitch, Logo } from './SiteChrome';

/**
 * The link of the sign-up e-mail: completes the sign-up (the account is made now, joined to the plans that invited the
 * address) and signs in. A link used, expired or unknown says so, with the way back to Login.
 */
export default function SignupConfirmPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const [failed, setFailed] = useState(false);
  // The link works once: React's development double effect must not spend it twice.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    if (!key) {
      setFailed(true);
      return;
    }
    void (async () => {
      try {
        const answer = await api.post('/users/email-signup/confirm', { token: key }, { quiet: true });
        if (answer.status >= 300) throw new Error('refused');
        // The confirmation joined every plan that invited the address: a waiting invitation key has done its part.
        dropPendingInvitation();
        const me = await refresh();
        navigate(landingPathFor(me?.business_plans ?? [], { invited: true }), { replace: true });
      } catch {
        setFailed(true);
      }
    })();
  }, [key, navigate, refresh]);

  if (!failed) return <Loading />;
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Logo />
        <LanguageSwitch />
      </header>
      <main className="auth-card">
        <h1>{t('auth.signupTitle')}</h1>
        <p className="form-message error" role="alert" data-test="signup-link-invalid">
          {t('auth.signupLinkInvalid')}
        </p>
        <Link className="button button-primary button-block" to="/login">
          {t('auth.backToLogin')}
        </Link>
      </main>
    </div>
  );
}
