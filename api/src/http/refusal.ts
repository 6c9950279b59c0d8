import { tooManyRequests } from '@topline/contract';
import type { Verdict } from '../services/accounts/throttle';
import type { AppContext } from './context';

/**
 * Throws the 429 of a refused count, with Retry-After; a limit the caller is told about (`Limit.name`) travels with the
 * refusal, with its maximum and the seconds until it lifts.
 */
export function refuseIfLimited(ctx: AppContext, verdict: Verdict): void {
  if (verdict.allowed) return;
  const seconds = verdict.retryAfterSeconds;
  ctx.set('Retry-After', String(seconds));
  const minutes = Math.ceil(seconds / 60);
  const wait = `try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const { name, max } = verdict.limit;
  if (!name) throw tooManyRequests(`too many attempts; ${wait}`);
  throw tooManyRequests(`${MAIL_LIMIT_TEXT[name] ?? 'too many requests'} (at most ${max}); ${wait}`, {
    name,
    max,
    value: max + 1,
    retry_after_seconds: seconds,
  });
}

const MAIL_LIMIT_TEXT: Partial<Record<string, string>> = {
  mail_per_plan: 'too many e-mails sent for this business plan',
  mail_per_address: 'too many e-mails sent to this address',
  mail_per_sender: 'too many e-mails sent by you',
};
