import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../config';

/** What Google Identity Services hands the page: the ID token the API verifies, as `credential`. */
interface CredentialResponse {
  credential?: string;
}

interface GoogleIdentity {
  accounts: {
    id: {
      initialize: (options: { client_id: string; callback: (response: CredentialResponse) => void }) => void;
      prompt: () => void;
    };
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

const GIS_SRC = 'https://accounts.google.com/gsi/client';

function loadIdentityScript(): Promise<void> {
  if (window.google?.accounts) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SRC;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Google Identity Services failed to load'));
    document.head.appendChild(script);
  });
}

/**
 * Sign in with Google: Google Identity Services gives the page an ID token (`credential`) for this app's client id,
 * which `onCredential` posts to /user/google-auth, where the API checks its signature, issuer, audience and expiry.
 * Without a configured client id the button stays visible but inert.
 */
export function GoogleButton({ onCredential }: { onCredential: (credential: string) => void }) {
  const { t } = useTranslation();
  const clientId = runtimeConfig().googleClientId;
  const identity = useRef<GoogleIdentity | null>(null);
  const latest = useRef(onCredential);
  latest.current = onCredential;
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    loadIdentityScript()
      .then(() => {
        const google = window.google;
        if (cancelled || !google) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: (response) => {
            if (response.credential) latest.current(response.credential);
          },
        });
        identity.current = google;
        setReady(true);
      })
      .catch(() => setReady(false));
    return () => {
      cancelled = true;
    };
  }, [clientId]);

  return (
    <button
      type="button"
      className="google-button"
      disabled={!ready}
      title={clientId ? undefined : t('auth.googleUnavailable')}
      onClick={() => identity.current?.accounts.id.prompt()}
    >
      <svg viewBox="0 0 48 48" width="18" height="18" aria-hidden="true">
        <path
          fill="#EA4335"
          d="M24 9.5c3.5 0 6.6 1.2 9 3.6l6.7-6.7C35.6 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.6 13.2l7.8 6C12.3 13.4 17.7 9.5 24 9.5z"
        />
        <path
          fill="#4285F4"
          d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.5 5.8c4.4-4 7.1-10 7.1-17.5z"
        />
        <path
          fill="#FBBC05"
          d="M10.4 28.8c-.5-1.4-.8-3-.8-4.8s.3-3.3.8-4.8l-7.8-6C.9 16.5 0 20.1 0 24s.9 7.5 2.6 10.8l7.8-6z"
        />
        <path
          fill="#34A853"
          d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.5-5.8c-2.1 1.4-4.9 2.3-8.4 2.3-6.3 0-11.7-4.2-13.6-10l-7.8 6C6.6 42.6 14.6 48 24 48z"
        />
      </svg>
      <span>{t('auth.google')}</span>
    </button>
  );
}
