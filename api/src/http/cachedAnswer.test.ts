import { describe, expect, it } from 'vitest';
import { type CachedAnswer, cachedOnce } from './cachedAnswer';

/** A computation that finishes when told to, counting how often it was started. */
function deferred<T>() {
  let finish: (value: T) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  let started = 0;
  const body = () => {
    started++;
    return new Promise<T>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { body, finish: (value: T) => finish(value), fail: (error: unknown) => fail(error), started: () => started };
}

describe('an answer serialised once per plan version', () => {
  it('is computed once for every read that misses it meanwhile, then kept', async () => {
    const answers = new Map<string, CachedAnswer>();
    const slow = deferred<{ data: number[] }>();
    const reads = Array.from({ length: 5 }, () => cachedOnce(answers, '/pl/retrieve::', slow.body));
    slow.finish({ data: [1, 2, 3] });
    const served = await Promise.all(reads);
    expect(slow.started()).toBe(1);
    for (const answer of served) expect(answer).toBe(served[0]);
    expect(served[0]?.json.toString()).toBe('{"data":[1,2,3]}');
    expect(answers.get('/pl/retrieve::')).toBe(served[0]);
    // Kept: a later read computes nothing.
    const later = deferred<unknown>();
    expect(await cachedOnce(answers, '/pl/retrieve::', later.body)).toBe(served[0]);
    expect(later.started()).toBe(0);
  });

  it('computes each key on its own', async () => {
    const answers = new Map<string, CachedAnswer>();
    const [one, two] = await Promise.all([
      cachedOnce(answers, 'a', async () => ({ data: 'a' })),
      cachedOnce(answers, 'b', async () => ({ data: 'b' })),
    ]);
    expect([one?.json.toString(), two?.json.toString()]).toEqual(['{"data":"a"}', '{"data":"b"}']);
  });

  it('keeps nothing of a failure: the reads that waited share it, the next read computes again', async () => {
    const answers = new Map<string, CachedAnswer>();
    const failing = deferred<unknown>();
    const reads = [cachedOnce(answers, 'k', failing.body), cachedOnce(answers, 'k', failing.body)];
    failing.fail(new Error('case not found'));
    for (const read of reads) await expect(read).rejects.toThrow('case not found');
    expect(failing.started()).toBe(1);
    expect(answers.has('k')).toBe(false);
    const answer = await cachedOnce(answers, 'k', async () => ({ data: 1 }));
    expect(answer.json.toString()).toBe('{"data":1}');
  });
});
