/**
 * How many imports run at once (`XLSX_IMPORT_LIMITS`): one per plan, a few per user and a few in the whole server,
 * since each reads a file on a core of its own. Counted in this process; a slot is taken once the caller's right to
 * import into the plan is checked, before the file is read, and given back when the request ends.
 */
import { ApiError, conflict, type Limit, type LimitName, XLSX_IMPORT_LIMITS } from '@topline/contract';

export class ImportSlots {
  private readonly plans = new Map<number, number>();
  private readonly users = new Map<number, number>();
  private running = 0;

  constructor(private readonly limits: { perPlan: number; perUser: number; running: number } = XLSX_IMPORT_LIMITS) {}

  /**
   * Takes a slot for an import by `userId` into `planId`.
   * @returns the function that gives it back (call it once)
   * @throws ApiError 409 `imports_per_plan` while the plan has its import running, 429 `imports_per_user` or
   *   `imports_running` while the user or the server has theirs
   */
  take(planId: number, userId: number): () => void {
    const { perPlan, perUser, running } = this.limits;
    const plan = this.plans.get(planId) ?? 0;
    const user = this.users.get(userId) ?? 0;
    if (plan >= perPlan) {
      const limit = named('imports_per_plan', perPlan, plan + 1);
      const refusal = conflict('an import into this business plan is running: wait for it to end');
      throw new ApiError(409, { ...refusal.body, limit });
    }
    if (user >= perUser) {
      const limit = named('imports_per_user', perUser, user + 1);
      throw tooMany(`at most ${perUser} of your imports can run at once: wait for one to end`, limit);
    }
    if (this.running >= running) {
      const limit = named('imports_running', running, this.running + 1);
      throw tooMany('the server is reading other imports: try again in a moment', limit);
    }
    this.plans.set(planId, plan + 1);
    this.users.set(userId, user + 1);
    this.running++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      decrement(this.plans, planId);
      decrement(this.users, userId);
    };
  }
}

const tooMany = (message: string, limit: Limit) =>
  new ApiError(429, { title: 'Too Many Requests', message, code: 'too_many_requests', limit });

const named = (name: LimitName, max: number, value: number): Limit => ({ name, max, value });

function decrement(counts: Map<number, number>, key: number): void {
  const n = (counts.get(key) ?? 0) - 1;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
