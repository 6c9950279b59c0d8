/**
 * Counts attempts per key in a sliding window, in this process. Guards sign-in guessing and reset-mail floods;
 * several API processes each keep their own count, which still bounds the rate.
 */
export class Throttle {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Whether another attempt is allowed now; the wait in seconds when not. */
  check(key: string, now: number): { allowed: boolean; retryAfterSeconds: number } {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return { allowed: true, retryAfterSeconds: 0 };
    const oldest = recent[0] ?? now;
    return { allowed: false, retryAfterSeconds: Math.ceil((oldest + this.windowMs - now) / 1000) };
  }

  record(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.hits.set(key, recent);
    if (this.hits.size > 10_000) this.sweep(now);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  private sweep(now: number): void {
    for (const [key, times] of this.hits) if (!times.some((t) => t > now - this.windowMs)) this.hits.delete(key);
  }
}
