import type { SignupAuthStatus } from '@topline/contract';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, getToken } from '../api/client';
import { runtimeConfig } from '../config';
import { FieldMessage } from '../lib/FieldMessage';
import {
  checkConfirmation,
  checkEmail,
  checkNewPassword,
  checkSignInPassword,
  type FieldError,
} from '../lib/validation';
import { useNotice } from '../notices';
import { landingPathFor, returnPathOf, useSession } from '../session';
import { GoogleButton } from './GoogleButton';
import { acceptPendingInvitation } from './pendingInvitation';
import { ContactLink, LanguageSwitch, Logo } from './SiteChrome';

type LoginState = 'email' | 'signup' | 'signin' | 'sent' | 'forgot';

interface Errors {
  email?: FieldError | null;
  password?: FieldError | null;
  confirmation?: FieldError | null;
}

/**
 * The sign-in page: an e-mail step, then the password with sign-in, "create an account" and the forgotten password.
 * The server's look-up answers alike for every address (it tells nobody who has an account), so the page offers both;
 * a sign-up ends on "check your mailbox", whose e-mail says what comes next (the link that completes the sign-up,
 * or that the address already has an account, or that a demo comes first).
 */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotice();
  const { refresh } = useSession();
  const location = useLocation();
  const [search] = useSearchParams();
  // The invitation link comes here with ?invited=<address> (its key waits in this tab: `pendingInvitation.ts`); the
  // mails about an existing account with ?email=<address>. Either fills the address in.
  const invited = search.get('invited')?.trim() ?? '';
  const prefilled = invited || (search.get('email')?.trim() ?? '');
  // A session that ended mid-way sends the user here with where they were, to go back there after signing in.
  const returnTo = returnPathOf(location.state);
  const [state, setState] = useState<LoginState>('email');
  const [email, setEmail] = useState(prefilled);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [demoNeeded, setDemoNeeded] = useState(false);
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setState('email');
    setPassword('');
    setConfirmation('');
    setErrors({});
    setMessage(null);
    setDemoNeeded(false);
  };
  const cancel = () => {
    reset();
    setEmail('');
  };

  const enter = useCallback(async () => {
    const joined = await acceptPendingInvitation();
    const me = await refresh();
    if (joined) navigate(`/business-plans/${joined}/pl`, { replace: true });
    else navigate(returnTo ?? landingPathFor(me?.business_plans ?? [], { invited: invited !== '' }), { replace: true });
  }, [navigate, refresh, returnTo, invited]);

  // Someone already signed in goes straight on to their plan.
  useEffect(() => {
    if (!getToken()) return;
    void refresh().then((me) => {
      if (me) navigate(returnTo ?? landingPathFor(me.business_plans, { invited: invited !== '' }), { replace: true });
    });
  }, [navigate, refresh, returnTo, invited]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // The client already showed the server's error notice.
    } finally {
      setBusy(false);
    }
  };

  const submitEmail = (event: FormEvent) => {
    event.preventDefault();
    const emailError = checkEmail(email);
    setErrors({ email: emailError });
    if (emailError) return;
    void run(async () => {
      const answer = await api.post('/users/email-signup-auth', { email: email.trim() });
      const next: Record<SignupAuthStatus, LoginState> = { email_next: 'signin' };
      setMessage(null);
      setDemoNeeded(false);
      setState(next[answer.data.status_code] ?? 'email');
    });
  };

  const submitSignIn = (event: FormEvent) => {
    event.preventDefault();
    const passwordError = checkSignInPassword(password);
    setErrors({ password: passwordError });
    if (passwordError) return;
    void run(async () => {
      const answer = await api.post('/users/email-signin', { email: email.trim(), password });
      if (answer.status === 209) {
        setMessage(t('auth.loginFailed'));
        return;
      }
      await enter();
    });
  };

  const submitSignUp = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: checkNewPassword(password, 'signup'),
      confirmation: checkConfirmation(confirmation, password, 'signup'),
    };
    setErrors(next);
    if (next.password || next.confirmation) return;
    void run(async () => {
      await api.post('/users/email-signup', {
        email: email.trim(),
        password,
        password_confirmation: confirmation,
      });
      setPassword('');
      setConfirmation('');
      setState('sent');
    });
  };

  const submitForgot = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.post('/users/password/apply', { email: email.trim() });
      notify({ kind: 'success', title: t('common.success'), message: t('auth.resetRequested') });
      cancel();
    });
  };

  const googleCredential = useCallback(
    (credential: string) => {
      void (async () => {
        try {
          const answer = await api.post('/user/google-auth', { credential });
          if (answer.status === 209) {
            setMessage(null);
            setDemoNeeded(true);
            return;
          }
          setDemoNeeded(false);
          if (answer.status === 210) {
            setMessage(t('auth.emailUser'));
            return;
          }
          await enter();
        } catch {
          // Notice already shown.
        }
      })();
    },
    [enter, t],
  );

  const passwordLabel = state === 'signup' ? t('auth.newPassword') : t('auth.password');
  const showSignUp = state === 'signup';
  // Sign-up checks each field as it is typed and blocks the submit while either is invalid.
  const signUpPassword = checkNewPassword(password, 'signup');
  const signUpConfirmation = checkConfirmation(confirmation, password, 'signup');
  const passwordShown = showSignUp && password !== '' ? signUpPassword : (errors.password ?? null);
  const confirmationShown = confirmation !== '' ? signUpConfirmation : (errors.confirmation ?? null);
  const signUpBlocked = showSignUp && Boolean(signUpPassword || signUpConfirmation);

  return (
    <div className="auth-page">
      <header className="auth-header">
        <Logo />
        <LanguageSwitch />
      </header>
      <main className="auth-card" data-state={state}>
        <h1>
          {showSignUp || state === 'sent'
            ? t('auth.signupTitle')
            : state === 'forgot'
              ? t('auth.forgotTitle')
              : t('auth.title')}
        </h1>
        {state === 'email' && returnTo && !message && !demoNeeded && (
          <p className="form-message" data-test="session-ended">
            {t('auth.sessionExpired')}
          </p>
        )}
        {state === 'email' && invited !== '' && (
          <p className="form-message" data-test="invited">
            {t('auth.invited', { email: invited })}
          </p>
        )}
        {message && (
          <p className="form-message error" role="alert">
            {message}
          </p>
        )}
        {demoNeeded && state === 'email' && <DemoRequired />}

        {state === 'email' && (
          <>
            <GoogleButton onCredential={googleCredential} />
            <p className="divider">
              <span>{t('auth.or')}</span>
            </p>
            <form onSubmit={submitEmail} noValidate>
              <label className="field">
                <span>{t('auth.email')}</span>
                <input
                  type="email"
                  name="email"
                  autoComplete="email"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  aria-invalid={Boolean(errors.email)}
                />
              </label>
              <FieldMessage error={errors.email ?? null} field={t('auth.email')} />
              <button type="submit" className="button button-primary button-block" disabled={busy}>
                {t('common.next')}
              </button>
            </form>
          </>
        )}

        {(state === 'signin' || state === 'signup') && (
          <form onSubmit={showSignUp ? submitSignUp : submitSignIn} noValidate>
            <p className="email-shown" data-test="email-shown">
              {email}
            </p>
            <label className="field">
              <span>{passwordLabel}</span>
              <input
                type="password"
                name="password"
                autoComplete={showSignUp ? 'new-password' : 'current-password'}
                value={password}
                onChange={(event) => setPassword(event.target.value)}
                aria-invalid={Boolean(errors.password)}
              />
            </label>
            <FieldMessage error={passwordShown} field={passwordLabel} />
            {showSignUp && (
              <>
                <label className="field">
                  <span>{t('auth.passwordConfirmation')}</span>
                  <input
                    type="password"
                    name="password_confirmation"
                    autoComplete="new-password"
                    value={confirmation}
                    onChange={(event) => setConfirmation(event.target.value)}
                    aria-invalid={Boolean(errors.confirmation)}
                  />
                </label>
                <FieldMessage error={confirmationShown} field={t('auth.passwordConfirmation')} />
              </>
            )}
            <div className="form-actions">
              <button type="button" className="button button-ghost" onClick={cancel}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="button button-primary" disabled={busy || signUpBlocked}>
                {showSignUp ? t('auth.signUp') : t('auth.signIn')}
              </button>
            </div>
            {!showSignUp && (
              <div className="auth-links">
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setErrors({});
                    setMessage(null);
                    setState('forgot');
                  }}
                >
                  {t('auth.forgot')}
                </button>
                <button
                  type="button"
                  className="link-button"
                  data-test="create-account"
                  onClick={() => {
                    setErrors({});
                    setMessage(null);
                    setPassword('');
                    setState('signup');
                  }}
                >
                  {t('auth.createAccount')}
                </button>
              </div>
            )}
          </form>
        )}

        {state === 'sent' && (
          <div className="auth-info" data-test="check-mailbox">
            <p className="form-message" role="status">
              {t('auth.checkMailbox', { email: email.trim() })}
            </p>
            <button type="button" className="button button-ghost" onClick={cancel}>
              {t('auth.backToLogin')}
            </button>
          </div>
        )}

        {state === 'forgot' && (
          <form onSubmit={submitForgot}>
            <p>{t('auth.forgotText')}</p>
            <p className="email-shown">{email}</p>
            <div className="form-actions">
              <button type="button" className="button button-ghost" onClick={reset}>
                {t('common.cancel')}
              </button>
              <button type="submit" className="button button-primary" disabled={busy}>
                {t('common.submit')}
              </button>
            </div>
          </form>
        )}

        <Link className="back-to-top" to="/">
          ← {t('common.backToTop')}
        </Link>
      </main>
    </div>
  );
}

/**
 * The demo-required answer (Google's 209): the message and how to get a demo, in both languages: the booking page
 * and the contact link of the configuration, each when set, or else whom to ask.
 */
function DemoRequired() {
  const { t } = useTranslation();
  const { demoBookingUrl, contactUrl } = runtimeConfig();
  const how = demoBookingUrl ? 'auth.demoHowBooking' : contactUrl ? 'auth.demoHowContact' : 'auth.demoHowAsk';
  return (
    <div className="demo-required" data-test="demo-required-box">
      <p className="form-message error" role="alert" data-test="demo-required">
        {t('auth.demoRequired')}
        <br />
        {t(how)}
      </p>
      {(demoBookingUrl || contactUrl) && (
        <div className="form-actions">
          {demoBookingUrl && (
            <a
              className="button button-primary"
              href={demoBookingUrl}
              target="_blank"
              rel="noreferrer"
              data-test="demo-booking"
            >
              {t('auth.bookDemo')}
            </a>
          )}
          <ContactLink className="button button-ghost" />
        </div>
      )}
    </div>
  );
}
