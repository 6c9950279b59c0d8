import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { FieldMessage } from '../lib/FieldMessage';
import { checkConfirmation, checkNewPassword, type FieldError } from '../lib/validation';
import { useNotice } from '../notices';
import { Loading } from '../shell/Loading';
import { LanguageSwitch, Logo } from './SiteChrome';

/** Sets a new password from the link in the reset e-mail; an invalid or expired token goes Home. */
export default function PasswordResetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotice();
  const [params] = useSearchParams();
  const token = params.get('key') ?? params.get('token') ?? '';
  const [verified, setVerified] = useState(false);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<{ password?: FieldError | null; confirmation?: FieldError | null }>({});
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) {
      navigate('/', { replace: true });
      return;
    }
    let cancelled = false;
    api
      .post('/users/password/verify', { token }, { quiet: true })
      .then((answer) => {
        if (cancelled) return;
        if (answer.status >= 209 || !answer.data.valid) navigate('/', { replace: true });
        else setVerified(true);
      })
      .catch(() => {
        if (!cancelled) navigate('/', { replace: true });
      });
    return () => {
      cancelled = true;
    };
  }, [token, navigate]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: checkNewPassword(password, 'reset'),
      confirmation: checkConfirmation(confirmation, password, 'reset'),
    };
    setErrors(next);
    if (next.password || next.confirmation) return;
    setBusy(true);
    try {
      await api.post('/users/password/set', { token, password, password_confirmation: confirmation });
      notify({ kind: 'success', title: t('common.success'), message: t('auth.resetDone') });
      setDone(true);
    } catch {
      // Notice already shown.
    } finally {
      setBusy(false);
    }
  };

  if (!verified) return <Loading />;
  const livePassword = checkNewPassword(password, 'reset');
  const liveConfirmation = checkConfirmation(confirmation, password, 'reset');
  const invalid = Boolean(livePassword || liveConfirmation);
  // Messages show per field as soon as it holds something, or after a submit attempt.
  const passwordShown = password !== '' ? livePassword : (errors.password ?? null);
  const confirmationShown = confirmation !== '' ? liveConfirmation : (errors.confirmation ?? null);
  return (
    <div className="auth-page">
      <header className="auth-header">
        <Logo />
        <LanguageSwitch />
      </header>
      <main className="auth-card">
        <h1>{t('auth.resetTitle')}</h1>
        {done ? (
          <>
            <p className="form-message success" role="status">
              {t('auth.resetDone')}
            </p>
            <Link className="button button-primary button-block" to="/login">
              {t('common.login')}
            </Link>
          </>
        ) : (
          <form onSubmit={submit} noValidate>
            <label className="field">
              <span>{t('auth.newPassword')}</span>
              <input
                type="password"
                name="password"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            </label>
            <FieldMessage error={passwordShown} field={t('auth.newPassword')} />
            <label className="field">
              <span>{t('auth.passwordConfirmation')}</span>
              <input
                type="password"
                name="password_confirmation"
                autoComplete="new-password"
                value={confirmation}
                onChange={(event) => setConfirmation(event.target.value)}
              />
            </label>
            <FieldMessage error={confirmationShown} field={t('auth.passwordConfirmation')} />
            <button type="submit" className="button button-primary button-block" disabled={busy || invalid}>
              {t('common.submit')}
            </button>
          </form>
        )}
        <Link className="back-to-top" to="/">
          ← {t('common.backToTop')}
        </Link>
      </main>
    </div>
  );
}
