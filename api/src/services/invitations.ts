import { badRequest, notFound } from '@topline/contract';
import type { Db } from '../db';
import type { PlanAccess } from './access';
import type { Mailer } from './mail';
import { normalizeEmail, type UserRow } from './users';

/** Whether some plan has invited this address (a plan_members row with that e-mail): it may then sign up. */
export async function isInvited(db: Db, email: string): Promise<boolean> {
  const row = await db('plan_members')
    .where({ email: normalizeEmail(email) })
    .first();
  return row !== undefined;
}

/**
 * Sends the invitation e-mail for a plan: it names the plan and the inviter and links to the login page, where the
 * invited address may sign up without the demo allow-list. The link carries no secret: the invitation is the
 * plan_members row itself.
 */
export async function sendInvitation(
  mailer: Mailer,
  invite: { email: string; planName: string; inviter: Pick<UserRow, 'name' | 'email'>; publicUrl: string },
): Promise<void> {
  const email = normalizeEmail(invite.email);
  const link = new URL('/login', invite.publicUrl);
  link.searchParams.set('invited', email);
  const inviter = invite.inviter.name ? `${invite.inviter.name} (${invite.inviter.email})` : invite.inviter.email;
  await mailer.send({
    to: email,
    subject: `Topline: ${inviter} invited you to "${invite.planName}"`,
    text:
      `${inviter} invited you to the business plan "${invite.planName}" on Topline.\n\n` +
      `Open this link and sign up (or sign in) with ${email}, by e-mail or with Google, to join the plan:\n\n` +
      `${link.toString()}\n\nIf you did not expect this, ignore this message.`,
  });
}

/**
 * POST /authority/resend: sends the invitation again to a member who has not joined yet.
 * @throws ApiError 404 for an address that is not a member, 400 for a member who already joined.
 */
export async function resendInvitation(
  db: Db,
  mailer: Mailer,
  access: PlanAccess,
  inviter: Pick<UserRow, 'name' | 'email'>,
  rawEmail: string,
  publicUrl: string,
): Promise<void> {
  const email = normalizeEmail(rawEmail);
  const member = await db('plan_members').where({ plan_id: access.plan.id, email }).first();
  if (!member) throw notFound('the member');
  if (member.status !== 'yet') throw badRequest({ email: 'this member has already joined the business plan' });
  await sendInvitation(mailer, { email, planName: access.plan.name, inviter, publicUrl });
}
