import type { TestApi } from './harness';

/** The key of the newest link of this kind (`/signup/confirm`, `/invitation`, `/password-reset`) mailed to `to`. */
export function mailedKey(api: TestApi, to: string, path: string): string | null {
  for (const mail of [...api.mail].reverse()) {
    if (mail.to !== to) continue;
    const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname === path);
    if (link) return new URL(link).searchParams.get('key');
  }
  return null;
}

/**
 * Signs up through the e-mailed link, as a person does: the sign-up, the link from the mail, the confirmation.
 * @returns the confirmation's token
 * @throws when a step is refused or no link was mailed
 */
export async function signUpByMail(api: TestApi, email: string, password: string): Promise<string> {
  const asked = await api.call('POST', '/users/email-signup', {
    body: { email, password, password_confirmation: password },
  });
  if (asked.status !== 202) throw new Error(`sign-up refused: ${asked.status} ${asked.text}`);
  const key = mailedKey(api, email.toLowerCase(), '/signup/confirm');
  if (!key) throw new Error(`no sign-up link mailed to ${email}: ${api.mail.at(-1)?.text ?? 'no mail'}`);
  const confirmed = await api.call('POST', '/users/email-signup/confirm', { body: { token: key } });
  if (confirmed.status !== 201) throw new Error(`confirmation refused: ${confirmed.status} ${confirmed.text}`);
  return confirmed.body.app_token as string;
}
