import { describe, expect, it } from 'vitest';
import { Newest } from './newest';

/** Resolves with `value` once `release` is called: an answer that arrives when the test says. */
function held<T>(value: T) {
  let release = () => {};
  const answer = new Promise<T>((resolve) => {
    release = () => resolve(value);
  });
  return { answer, release: () => release() };
}

describe('newest load', () => {
  it('lets only the newest of overlapping loads change the panel, whichever answers last', async () => {
    const newest = new Newest();
    const shown: string[] = [];
    const load = async (answer: Promise<string>) => {
      const current = newest.begin();
      const value = await answer;
      if (current()) shown.push(value);
    };
    // The first load's answer (Stripe back in reach) comes after the second's (out of reach): the panel keeps the
    // second's, as a user who asked again expects.
    const first = held('ready');
    const second = held('unreachable');
    const loads = [load(first.answer), load(second.answer)];
    second.release();
    first.release();
    await Promise.all(loads);
    expect(shown).toEqual(['unreachable']);
    // A load started after both is the newest again.
    await load(Promise.resolve('ready'));
    expect(shown).toEqual(['unreachable', 'ready']);
  });

  it('keeps a further page with the load it goes on from, and drops it once a newer load begins', () => {
    const newest = new Newest();
    const first = newest.begin();
    const page = newest.join();
    // The further page does not make the first load stale.
    expect(first()).toBe(true);
    expect(page()).toBe(true);
    // A reload (after a restore) makes both stale: the older page is not appended to the list read since.
    const reload = newest.begin();
    expect([first(), page(), reload()]).toEqual([false, false, true]);
  });

  it('drops every answer still on its way once cancelled (the panel closed)', async () => {
    const newest = new Newest();
    const current = newest.begin();
    expect(current()).toBe(true);
    newest.cancel();
    expect(current()).toBe(false);
    expect(newest.begin()()).toBe(true);
  });
});
