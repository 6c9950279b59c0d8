import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUse, lockDataDir } from './dataLock';

/** The lock of the embedded database (`dataLock.ts`): who holds it, and when a lock file left behind is stale. */
const root = mkdtempSync(join(tmpdir(), 'topline-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dir = () => join(root, `db${++n}`);

/** A live process of another program, and its start time as /proc tells it (null where there is no /proc). */
async function sleeper() {
  const child = spawn('sleep', ['30']);
  await new Promise((done) => child.once('spawn', done));
  const stat = existsSync(`/proc/${child.pid}/stat`) ? readFileSync(`/proc/${child.pid}/stat`, 'utf8') : null;
  const started = stat ? (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null) : null;
  return { child, started };
}

describe('the lock of the embedded database', () => {
  it('refuses a second opener while held, also in the same process, and is free once released', () => {
    const path = dir();
    const lock = lockDataDir(path, 'server');
    const owner = JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, role: 'server' });
    expect(() => lockDataDir(path, 'admin')).toThrow(DataDirInUse);
    lock.announce('/tmp/some.sock');
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).socket).toBe('/tmp/some.sock');
    lock.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
    lockDataDir(path, 'admin').release();
  });

  it('refuses while a live process holds it, and takes it over once that process is gone', async () => {
    const path = dir();
    const { child, started } = await sleeper();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: child.pid, started, role: 'admin', since: '' }));
    let refusal: unknown;
    try {
      lockDataDir(path, 'server');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirInUse);
    expect((refusal as DataDirInUse).owner.pid).toBe(child.pid);
    expect((refusal as DataDirInUse).message).toContain(`in use by an admin command (process ${child.pid})`);
    child.kill('SIGKILL');
    await new Promise((done) => child.once('exit', done));
    const lock = lockDataDir(path, 'server');
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it.runIf(existsSync('/proc/self/stat'))('takes over a lock whose process id now runs another program', async () => {
    const path = dir();
    const { child, started } = await sleeper();
    // The id is alive, but the process that wrote the lock started at another time: the id was reused.
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({ pid: child.pid, started: `${started}1`, role: 'server', since: '' }),
    );
    const lock = lockDataDir(path, 'admin');
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
    child.kill('SIGKILL');
  });

  it('takes over a lock of this process id that this process does not hold (a restart as the same id)', () => {
    const path = dir();
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: process.pid, started: null, role: 'server', since: '' }));
    lockDataDir(path, 'server').release();
  });

  it('takes over a damaged lock file, once it is older than a moment', () => {
    const path = dir();
    writeFileSync(`${path}.lock`, '{"pid":');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    lockDataDir(path, 'server').release();
  });
});
