import { z } from 'zod';

const tokenInfoSchema = z.object({
  email: z.email(),
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  sub: z.string().min(1),
  aud: z.string().optional(),
  azp: z.string().optional(),
});

export interface GoogleIdentity {
  email: string;
  sub: string;
}

/**
 * Asks Google's token-info endpoint who an access token belongs to.
 * Null when Google does not accept the token, the e-mail is not verified, or the token was issued to another client.
 */
export async function googleIdentity(
  tokenInfoBaseUrl: string,
  accessToken: string,
  clientId: string | undefined,
): Promise<GoogleIdentity | null> {
  const url = new URL('/tokeninfo', tokenInfoBaseUrl);
  url.searchParams.set('access_token', accessToken);
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) return null;
  const parsed = tokenInfoSchema.safeParse(await response.json());
  if (!parsed.success) return null;
  const info = parsed.data;
  if (info.email_verified === false || info.email_verified === 'false') return null;
  if (clientId && info.aud !== clientId && info.azp !== clientId) return null;
  return { email: info.email, sub: info.sub };
}
