import { ApiError, badRequest, notFound } from '@topline/contract';
import type { Db } from '../../db';
import type { PlanAccess } from '../access/access';
import { escapeHtml, type Mailer, oneLine } from '../accounts/mail';
import { LIMITS } from '../accounts/throttle';
import { hashResetToken, newResetToken } from '../accounts/tokens';
import { acceptInvitations, markVerified, normalizeEmail, type UserRow } from '../accounts/users';
import { claimIdempotencyKey } from '../requests/idempotency';

/** How long an invitation link lives (`INVITATION_TTL_DAYS`), and where links point. */
export interface InvitationOptions {
  publicUrl: string;
  ttlDays: number;
  now: Date;
}

/** The counts an invitation mail takes: per plan, per sender (the inviting user) and per recipient address. */
export const invitationMailCounts = (planId: number, senderId: number, email: string) =>
  [
    [LIMITS.inviteMailPerPlan, String(planId)],
    [LIMITS.inviteMailPerSender, String(senderId)],
    [LIMITS.mailPerAddress, normalizeEmail(email)],
  ] as const;

/** Invitations still waiting whose link is live (not used, voided or expired), as plan_members ids. */
const liveInvitations = (db: Db, now: Date) =>
  db('plan_invitations').whereNull('used_at').andWhere('expires_at', '>', now).select('member_id');

/** Whether some plan's invitation to this address is live: the address may then sign up without the demo allow-list. */
export async function isInvited(db: Db, email: string, now: Date): Promise<boolean> {
  const row = await db('plan_members')
    .where({ email: normalizeEmail(email), status: 'yet' })
    .whereIn('id', liveInvitations(db, now))
    .first('id');
  return row !== undefined;
}

/**
 * A new link for a member who has not joined: voids the member's earlier links, stores the new one's hash only, and
 * answers the token to mail.
 */
export async function issueInvitation(
  db: Db,
  memberId: number,
  options: Pick<InvitationOptions, 'ttlDays' | 'now'>,
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash } = newResetToken();
  const expiresAt = new Date(options.now.getTime() + options.ttlDays * 86_400_000);
  await db.transaction(async (trx) => {
    await trx('plan_invitations').where({ member_id: memberId }).whereNull('used_at').update({ used_at: options.now });
    await trx('plan_invitations').insert({ member_id: memberId, token_hash: hash, expires_at: expiresAt });
  });
  return { token, expiresAt };
}

/**
 * Sends a member a new invitation link (voiding the earlier one). The mail names the plan and the inviter on one
 * line each (`oneLine`; escaped in the HTML part) and links to `/invitation?key=...`, whose secret proves the mailbox.
 */
export async function sendInvitation(
  db: Db,
  mailer: Mailer,
  invite: { planId: number; email: string; planName: string; inviter: Pick<UserRow, 'name' | 'email'> },
  options: InvitationOptions,
): Promise<void> {
  const email = normalizeEmail(invite.email);
  const member = await db('plan_members').where({ plan_id: invite.planId, email }).first('id');
  if (!member) throw notFound('the member');
  const { token, expiresAt } = await issueInvitation(db, member.id, options);
  const link = new URL('/invitation', options.publicUrl);
  link.searchParams.set('key', token);
  link.searchParams.set('email', email);
  const planName = oneLine(invite.planName);
  const inviterName = oneLine(invite.inviter.name);
  const inviter = inviterName ? `${inviterName} (${invite.inviter.email})` : invite.inviter.email;
  const until = expiresAt.toISOString().slice(0, 10);
  await mailer.send({
    to: email,
    subject: oneLine(`Topline: ${inviter} invited you to "${planName}"`, 200),
    text:
      `${inviter} invited you to the business plan "${planName}" on Topline.\n\n` +
      `Open this link to join it with ${email}: sign in, or create an account for this address (by e-mail or with ` +
      `Google). The link works once, until ${until}:\n\n${link.toString()}\n\n` +
      'If you did not expect this, ignore this message.',
    html:
      `<p>${escapeHtml(inviter)} invited you to the business plan “${escapeHtml(planName)}” on Topline.</p>` +
      `<p>Open this link to join it with ${escapeHtml(email)}: sign in, or create an account for this address. ` +
      `The link works once, until ${until}:</p><p><a href="${escapeHtml(link.toString())}">Join the business plan</a></p>` +
      '<p>If you did not expect this, ignore this message.</p>',
  });
}

/**
 * POST /authority/resend: a new link to a member who has not joined yet (an invited or an expired one); the earlier
 * link stops working.
 * @throws ApiError 404 for an address that is not a member, 400 for a member who already joined.
 */
export async function resendInvitation(
  db: Db,
  mailer: Mailer,
  access: PlanAccess,
  inviter: Pick<UserRow, 'name' | 'email'>,
  rawEmail: string,
  options: InvitationOptions,
): Promise<void> {
  const email = normalizeEmail(rawEmail);
  const member = await db('plan_members').where({ plan_id: access.plan.id, email }).first();
  if (!member) throw notFound('the member');
  if (member.status !== 'yet') throw badRequest({ email: 'this member has already joined the business plan' });
  await sendInvitation(db, mailer, { planId: access.plan.id, email, planName: access.plan.name, inviter }, options);
}

const invalidLink = () => badRequest({ token: 'the invitation link is invalid, used or expired; ask for a new one' });

/**
 * An invitation link opened by a signed-in account: the link was mailed to the invited address, so holding it proves
 * the mailbox. Only the account of that same address may use it; it joins the plan (and every other plan whose
 * invitation to the address is live) and marks the account's address proved.
 * @returns the plan the link invited to.
 * @throws ApiError 400 for a link unknown, used, voided or expired; 403 for an account of another address.
 */
export async function acceptInvitationLink(db: Db, user: UserRow, token: string, now: Date): Promise<number> {
  const found = await db('plan_invitations as pi')
    .join('plan_members as pm', 'pm.id', 'pi.member_id')
    .where('pi.token_hash', hashResetToken(token))
    .whereNull('pi.used_at')
    .andWhere('pi.expires_at', '>', now)
    .andWhere('pm.status', 'yet')
    .first('pm.plan_id', 'pm.email');
  if (!found) throw invalidLink();
  if (found.email !== normalizeEmail(user.email)) {
    throw new ApiError(403, {
      title: 'Forbidden',
      message: `this invitation is for another address; sign in as ${found.email} to accept it`,
      code: 'no_access',
    });
  }
  await db.transaction(async (trx) => {
    await claimIdempotencyKey(trx);
    const verified = await markVerified(trx, user, now);
    await acceptInvitations(trx, verified, now);
  });
  return Number(found.plan_id);
}
