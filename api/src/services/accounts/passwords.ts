import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): strong enough, and quick enough for a sign-in on 2 cores.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

/** A hash of a random password nobody knows, made once, for sign-ins that have no hash of their own to check. */
let standIn: Promise<string> | undefined;

/**
 * Whether the password matches the hash. Without a hash (no such account, or a Google account) a stand-in hash is
 * checked all the same and the answer is false, so that a sign-in takes as long whether the address has a password
 * or not, and its timing does not tell which addresses have an account.
 */
export async function passwordMatches(hash: string | null | undefined, password: string): Promise<boolean> {
  standIn ??= hashPassword(randomBytes(24).toString('base64url'));
  try {
    const matches = await argon2.verify(hash ?? (await standIn), password);
    return matches && Boolean(hash);
  } catch {
    return false;
  }
}
