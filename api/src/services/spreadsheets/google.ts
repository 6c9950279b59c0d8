import { unavailable } from '@topline/contract';
import { OAuth2Client } from 'google-auth-library';

/** The issuers of Google's ID tokens (Google Identity: "Verify the Google ID token on your server side"). */
const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

export interface GoogleIdentity {
  email: string;
  sub: string;
}

/**
 * Sign in with Google: checks the ID token that Google Identity Services gives the browser (its `credential`) with
 * google-auth-library: signed by one of Google's keys (fetched from `certsUrl`, kept as long as Google says), issued by
 * Google, to this app's client id, and not expired.
 */
export class GoogleSignin {
  private readonly client: OAuth2Client;

  constructor(
    private readonly clientId: string,
    certsUrl: string,
  ) {
    // The library reads the PEM form of the keys under Node.
    this.client = new OAuth2Client({
      clientId,
      issuers: GOOGLE_ISSUERS,
      endpoints: { oauth2FederatedSignonPemCertsUrl: certsUrl },
      transporterOptions: { timeout: 10_000 },
    });
  }

  /**
   * Who the ID token names, or null when it is forged, expired, issued by someone else or to another app, or names an
   * address Google has not verified. The token is never logged: the library's errors quote it whole.
   * @throws ApiError 503 when Google's keys cannot be fetched.
   */
  async identity(idToken: string): Promise<GoogleIdentity | null> {
    try {
      await this.client.getFederatedSignonCertsAsync();
    } catch {
      throw unavailable('Google sign-in cannot reach Google right now; try again in a few minutes');
    }
    try {
      const payload = (await this.client.verifyIdToken({ idToken, audience: this.clientId })).getPayload();
      if (!payload?.email || !payload.sub || payload.email_verified !== true) return null;
      return { email: payload.email, sub: payload.sub };
    } catch {
      return null;
    }
  }
}
