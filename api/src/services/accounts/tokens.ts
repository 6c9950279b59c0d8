import { createHash, randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { UserRow } from './users';

/** Bearer tokens are HS256 JWTs; `tv` (token version) lets sign-out revoke every token issued before it. */
export class TokenSigner {
  private readonly key: Uint8Array;
  /** Tokens already verified, with their expiry: a token is immutable, so checking its signature once is enough. */
  private readonly verified = new Map<string, { userId: number; tokenVersion: number; expiresAt: number }>();
  private readonly maxVerified = 10_000;
  constructor(
    secret: string,
    private readonly ttlHours: number,
  ) {
    this.key = createHash('sha256').update(`app-token:${secret}`).digest();
  }

  async issue(user: Pick<UserRow, 'id' | 'token_version'>): Promise<string> {
    return new SignJWT({ tv: user.token_version })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .setExpirationTime(`${Math.round(this.ttlHours * 3600)}s`)
      .sign(this.key);
  }

  /** The user id and token version of a valid token, or null for anything expired, forged or malformed. */
  async verify(token: string): Promise<{ userId: number; tokenVersion: number } | null> {
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.expiresAt) return { userId: known.userId, tokenVersion: known.tokenVersion };
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      const tokenVersion = payload.tv;
      if (!Number.isInteger(userId) || typeof tokenVersion !== 'number' || typeof payload.exp !== 'number') return null;
      if (this.verified.size >= this.maxVerified) {
        const oldest = this.verified.keys().next().value;
        if (oldest !== undefined) this.verified.delete(oldest);
      }
      this.verified.set(token, { userId, tokenVersion, expiresAt: payload.exp * 1000 });
      return { userId, tokenVersion };
    } catch {
      return null;
    }
  }
}

/** A random single-use token for e-mail links; only its SHA-256 is stored. */
export function newResetToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashResetToken(token) };
}

export const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');
