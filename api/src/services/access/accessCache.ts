import type { SignedInFacts } from './access';

/**
 * What decides each signed-in user's access to each plan (`loadSignedInFacts`), kept in memory so that a warm read
 * needs no database round trip. The database tells every API process of each committed change to the rows involved
 * (users, subscriptions, business_plans, plan_members: migrations/002_change_notifications.ts), and each change empties
 * the cache; a write that only moved a plan's version (every edit of its inputs does) moves the version kept for that
 * plan forward instead (`planVersion`, migrations/011_plan_version_notifications.ts), so steady editing does not send
 * every read back to the database. Until the process listens (`changed` after `listenForChanges` connects), and
 * whenever the listening connection is lost, nothing is kept and every call reads the database.
 *
 * A load that raced a change is answered but not kept: `generation` moves on with every change.
 */
export class AccessCache {
  private readonly entries = new Map<string, SignedInFacts>();
  /** The newest version heard of per plan since the last change; kept facts of an older one are moved to it. */
  private readonly versions = new Map<number, number>();
  private generation = 0;
  private listening = false;
  /** Kept facts answered; loads from the database; notifications heard (changes and version moves). */
  readonly stats = { hits: 0, loads: 0, heard: 0 };

  constructor(private readonly maxEntries = 10_000) {}

  /** The database reported a change, or listening (re)started: drop everything; from now on, keep loads. */
  changed(): void {
    this.stats.heard++;
    this.invalidate();
    this.listening = true;
  }

  /** Listening stopped: notifications may be missed, so keep nothing until it starts again. */
  lost(): void {
    this.listening = false;
    this.invalidate();
  }

  /** This process changed something (it answered a write): drop everything, without waiting for the notification. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.versions.clear();
  }

  /**
   * A committed write moved the plan to `version` and changed nothing else that access depends on (reported by the
   * database to every process, and by this process's own writes at once).
   */
  planVersion(planId: number, version: number): void {
    this.stats.heard++;
    if (version <= (this.versions.get(planId) ?? 0)) return;
    // Every plan's version is kept while the cache holds anything; far more plans than entries: start afresh.
    if (this.versions.size >= this.maxEntries && !this.versions.has(planId)) this.invalidate();
    this.versions.set(planId, version);
  }

  /** What is kept for this user and plan, if anything, with no waiting. */
  private peek(userId: number, planId: number): SignedInFacts | undefined {
    const key = `${userId}:${planId}`;
    const kept = this.listening ? this.entries.get(key) : undefined;
    if (!kept) return undefined;
    this.stats.hits++;
    const current = this.current(kept, planId);
    if (current !== kept) this.entries.set(key, current);
    return current;
  }

  async get(userId: number, planId: number, load: () => Promise<SignedInFacts>): Promise<SignedInFacts> {
    const hit = this.peek(userId, planId);
    if (hit) return hit;
    const key = `${userId}:${planId}`;
    this.stats.loads++;
    const generation = this.generation;
    const loaded = await load();
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(key, loaded);
    }
    // A version heard of while loading is newer than the one read.
    return this.current(loaded, planId);
  }

  /** The facts with the plan at the newest version heard of, if that is newer than theirs. */
  private current(kept: SignedInFacts, planId: number): SignedInFacts {
    const version = this.versions.get(planId);
    const facts = kept.facts;
    if (!facts || version === undefined || version <= Number(facts.plan.version)) return kept;
    const plan = Object.freeze({ ...facts.plan, version });
    return Object.freeze({ user: kept.user, facts: Object.freeze({ ...facts, plan }) });
  }
}
