import { createServer, type Server } from 'node:http';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';

/**
 * A local stand-in for Google's ID-token signing keys, for tests: it serves the public key of a key pair made here
 * in both of Google's forms (PEM at /oauth2/v1/certs, JWK at /oauth2/v3/certs), and signs ID tokens with it as Google
 * Identity Services would hand them to the page. The API reaches it through its GOOGLE_CERTS_URL setting.
 */
export interface GoogleStandIn {
  /** The PEM certs address, for GOOGLE_CERTS_URL. */
  certsUrl: string;
  /** How often the keys were fetched. */
  fetches(): number;
  /** An ID token for `email` issued to `clientId`, as Google signs it; `claims` override or add claims. */
  idToken(email: string, claims?: IdTokenClaims, options?: { signedBy?: 'google' | 'impostor' }): Promise<string>;
  close(): Promise<void>;
}

export interface IdTokenClaims {
  aud?: string;
  iss?: string;
  sub?: string;
  email_verified?: boolean;
  /** Seconds since the epoch. */
  iat?: number;
  exp?: number;
}

const KID = 'topline-test-key';

export async function startGoogleStandIn(clientId: string): Promise<GoogleStandIn> {
  const google = await generateKeyPair('RS256', { extractable: true });
  // Another key under the same key id: a token it signs names a key Google has, with a signature Google never made.
  const impostor = await generateKeyPair('RS256', { extractable: true });
  const pem = await exportSPKI(google.publicKey);
  const jwk = { ...(await exportJWK(google.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  let fetches = 0;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const body = path === '/oauth2/v1/certs' ? { [KID]: pem } : path === '/oauth2/v3/certs' ? { keys: [jwk] } : null;
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    fetches += 1;
    response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    certsUrl: `${base}/oauth2/v1/certs`,
    fetches: () => fetches,
    async idToken(email, claims = {}, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const key = options.signedBy === 'impostor' ? impostor.privateKey : google.privateKey;
      return new SignJWT({ email, email_verified: claims.email_verified ?? true, azp: claims.aud ?? clientId })
        .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
        .setIssuer(claims.iss ?? 'https://accounts.google.com')
        .setAudience(claims.aud ?? clientId)
        .setSubject(claims.sub ?? `sub-${email}`)
        .setIssuedAt(claims.iat ?? now)
        .setExpirationTime(claims.exp ?? now + 3600)
        .sign(key);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
