/**
 * Who uses the embedded database. PGlite is one process's database: a second process opening the same folder works on
 * a copy of its own, and what it writes is lost or breaks the folder. So the process that opens it holds a lock file
 * beside it (`DATA_DIR/pglite.lock`), written whole in one step, naming its process id, that process's start time,
 * its role (`server` or `admin`) and, once a server listens for admin commands, the socket it listens on.
 *
 * A live holder refuses every other opener at once (`DataDirInUse`). A holder that is gone (killed by SIGKILL, a
 * crash, a power cut: no clean-up ran) leaves a stale file, which the next opener replaces: the process id is no
 * longer running, or runs another program (a different start time, a zombie), or is the opener itself.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

export interface LockOwner {
  pid: number;
  /** The process's start time as the system counts it (Linux), to tell a reused process id; null elsewhere. */
  started: string | null;
  role: 'server' | 'admin';
  /** When the lock was taken (ISO 8601). */
  since: string;
  /** Where a running server takes admin commands (`adminChannel.ts`). */
  socket?: string;
}

/** The database folder is in use by another live process. */
export class DataDirInUse extends Error {
  override readonly name = 'DataDirInUse';
  constructor(
    readonly lockFile: string,
    readonly owner: LockOwner,
  ) {
    super(
      `The embedded database (${lockFile.replace(/\.lock$/, '')}) is in use by ${owner.role === 'admin' ? 'an admin command' : 'a Topline server'} (process ${owner.pid}).`,
    );
  }
}

export interface DataLock {
  readonly file: string;
  /** Records the socket of the admin channel in the lock file. */
  announce(socket: string): void;
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

/** Lock files this process holds, removed at a normal exit even when a caller forgot to. */
const held = new Set<string>();
let exitHook = false;

/** The start time of a process (field 22 of /proc/PID/stat) and whether it is a zombie; null where unknown. */
function processStat(pid: number): { started: string; zombie: boolean } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const started = fields[19];
    return started ? { started, zombie: fields[0] === 'Z' } : null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote `owner` is still running (and is the same process, not a reuse of its id). */
export function isAlive(owner: LockOwner, file: string): boolean {
  if (owner.pid === process.pid) return held.has(file);
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = processStat(owner.pid);
  if (stat?.zombie) return false;
  if (stat && owner.started !== null && stat.started !== owner.started) return false;
  return true;
}

/** The lock file's holder, or null when there is none or it cannot be read as one. */
export function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : null;
  } catch {
    return null;
  }
}

/** Writes the lock file whole: a temporary file linked (create only) or renamed (replace) into place. */
function writeWhole(file: string, owner: LockOwner, replace: boolean): boolean {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
  try {
    if (replace) renameSync(temporary, file);
    else linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // renamed away
    }
  }
}

/**
 * Takes the lock of the database in `dir` (the file `dir.lock`), replacing a stale one.
 * @throws DataDirInUse when a live process holds it
 */
export function lockDataDir(dir: string, role: LockOwner['role']): DataLock {
  const file = `${dir.replace(/[\\/]+$/, '')}.lock`;
  const me: LockOwner = {
    pid: process.pid,
    started: processStat(process.pid)?.started ?? null,
    role,
    since: new Date().toISOString(),
  };
  for (let attempt = 0; ; attempt++) {
    if (writeWhole(file, me, false)) break;
    const owner = readOwner(file);
    if (owner && isAlive(owner, file)) throw new DataDirInUse(file, owner);
    if (!owner && attempt < 20) {
      // Unreadable: a file written whole is never half there, so it is damaged, unless it appeared this instant.
      let age = Number.POSITIVE_INFINITY;
      try {
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue;
      }
      if (age < 1000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
        continue;
      }
    }
    if (attempt >= 20) throw new Error(`cannot take the lock ${file}`);
    // Stale: its process is gone. Remove it and try again (another opener may win the race, and is then the holder).
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  held.add(file);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const path of held) releaseFile(path);
    });
  }
  return {
    file,
    announce(socket) {
      if (held.has(file)) writeWhole(file, { ...me, socket }, true);
    },
    release() {
      releaseFile(file);
    },
  };
}

function releaseFile(file: string): void {
  if (!held.delete(file)) return;
  if (readOwner(file)?.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
