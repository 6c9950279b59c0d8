import { useEffect, useRef } from 'react';

/**
 * Orders the answers of a panel's reloads: each load takes a ticket when it starts, and only the newest ticket may
 * change the panel. An older load that answers late (a reload asked for again, an effect run twice) cannot undo what a
 * newer one showed, and after `cancel` (the panel unmounted) none can.
 */
export class Newest {
  private last = 0;

  /** A ticket for a load starting now: it answers whether that load is still the newest. */
  begin(): () => boolean {
    this.last += 1;
    const ticket = this.last;
    return () => this.last === ticket;
  }

  /**
   * A ticket for a load that goes on from the newest one (a further page of what it read): it does not make that one
   * stale, and goes stale with it when a newer load begins.
   */
  join(): () => boolean {
    const ticket = this.last;
    return () => this.last === ticket;
  }

  /** Makes every ticket handed out so far stale. */
  cancel(): void {
    this.last += 1;
  }
}

/** A component's `Newest`, cancelled when the component unmounts. */
export function useNewest(): Newest {
  const newest = useRef<Newest | null>(null);
  newest.current ??= new Newest();
  const current = newest.current;
  useEffect(() => () => current.cancel(), [current]);
  return current;
}
