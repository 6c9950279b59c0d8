import type { SignedInFacts } from './access';

/**
 * What decides each signed-in user's access to each plan (`loadSignedInFacts`), kept in memory so that a warm read
 * needs no database round trip. The database tells every API process of each committed change to the rows involved
 * (users, subscriptions, business_plans with its version, plan_members: migrations/002_change_notifications.ts), and
 * each change empties the cache. Until the process listens (`changed` after `listenForChanges` connects), and whenever
 * the listening connection is lost, nothing is kept and every call reads the database.
 *
 * A load that raced a change is answered but not kept: `generation` moves on with every change.
 */
export class AccessCache {
  private readonly entries = new Map<string, SignedInFacts>();
  private generation = 0;
  private listening = false;
  readonly stats = { hits: 0, loads: 0 };

  constructor(private readonly maxEntries = 10_000) {}

  /** The database reported a change, or listening (re)started: drop everything; from now on, keep loads. */
  changed(): void {
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
  }

  /** What is kept for this user and plan, if anything: the warm path, with no waiting. */
  peek(userId: number, planId: number): SignedInFacts | undefined {
    const hit = this.listening ? this.entries.get(`${userId}:${planId}`) : undefined;
    if (hit) this.stats.hits++;
    return hit;
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
    return loaded;
  }
}
