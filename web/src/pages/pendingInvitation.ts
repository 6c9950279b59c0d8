import { api } from '../api/client';

/**
 * An invitation link opened while signed out: its key waits in this tab's session storage until the person signs
 * in, and is then used to join (the key proves the invited mailbox; `/invitation/accept`).
 */
const KEY = 'topline.pending_invitation';

export function keepPendingInvitation(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function dropPendingInvitation(): void {
  sessionStorage.removeItem(KEY);
}

/**
 * Joins the plan of the invitation waiting in this tab, if any, with the signed-in account. Quietly: a Google
 * sign-in of the invited address has joined the plan already and used the link up.
 * @returns the plan joined, or null when none waited or the server refused it.
 */
export async function acceptPendingInvitation(): Promise<number | null> {
  const key = sessionStorage.getItem(KEY);
  if (!key) return null;
  dropPendingInvitation();
  return acceptInvitation(key, { quiet: true });
}

/**
 * Joins the plan of an invitation link with the signed-in account.
 * @returns the plan, or null when refused (the server's notice is shown unless `quiet`).
 */
export async function acceptInvitation(key: string, options: { quiet?: boolean } = {}): Promise<number | null> {
  try {
    const answer = await api.post('/invitation/accept', { token: key }, options);
    return answer.status < 300 ? answer.data.business_plan_id : null;
  } catch {
    return null;
  }
}
