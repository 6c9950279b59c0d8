/**
 * The commands of `npm run admin`, apart from how they reach the database: run by the CLI on a database it opens,
 * or by a running server for the CLI (`adminChannel.ts`). Each answers what the CLI prints and its exit code.
 */
import type { Tier } from '@topline/contract';
import type { Db } from './db';
import { allowSignup, findUserByEmail, setTier } from './services/accounts/users';

export const ADMIN_USAGE = `usage:
  npm run admin -- allow EMAIL                                   let EMAIL sign up (they had the live demo)
  npm run admin -- tier EMAIL free|basic|team [--trial-days N]   set a user's tier until billing exists`;

export type AdminCommand =
  | { command: 'allow'; email: string }
  | { command: 'tier'; email: string; tier: Tier; trialDays: number | null };

export interface AdminResult {
  code: number;
  /** What goes to stdout (success) or stderr (a refusal). */
  out: string;
  err: string;
}

/** The command of the CLI's arguments, or null when they do not make one (the CLI prints the usage). */
export function parseAdmin(args: readonly string[]): AdminCommand | null {
  const [command, email, ...rest] = args;
  if (!email?.includes('@')) return null;
  if (command === 'allow') return rest.length === 0 ? { command, email } : null;
  if (command !== 'tier') return null;
  const [tier, flag, days, ...more] = rest;
  if ((tier !== 'free' && tier !== 'basic' && tier !== 'team') || more.length > 0) return null;
  if (flag === undefined) return { command, email, tier, trialDays: null };
  const trialDays = Number(days);
  if (flag !== '--trial-days' || !/^\d+$/.test(days ?? '') || !Number.isSafeInteger(trialDays)) return null;
  return { command, email, tier, trialDays };
}

/** Runs a command on the database. */
export async function runAdmin(db: Db, command: AdminCommand, today: Date): Promise<AdminResult> {
  if (command.command === 'allow') {
    await allowSignup(db, command.email);
    return { code: 0, out: `${command.email} may now sign up.`, err: '' };
  }
  const user = await findUserByEmail(db, command.email);
  if (!user) return { code: 1, out: '', err: `No account for ${command.email}.` };
  await setTier(db, user.id, command.tier, command.trialDays, today);
  const trial = command.trialDays === null ? '' : ` with a ${command.trialDays}-day trial`;
  return { code: 0, out: `${command.email} is now on ${command.tier}${trial}.`, err: '' };
}
