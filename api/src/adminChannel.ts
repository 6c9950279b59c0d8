/**
 * The admin channel of a server on the embedded database: PGlite is one process's database, so while `npm start`
 * runs, `npm run admin` hands its command to the server instead of opening the database itself. The server listens
 * on a local socket (a Unix socket, mode 0600, in DATA_DIR or, when that path is too long for a socket, in the
 * system's temporary folder; a named pipe on Windows) and writes its address into the database's lock file
 * (`dataLock.ts`); the CLI reads it there. One request a connection: a JSON line with the CLI's arguments, answered
 * by a JSON line with what to print and the exit code.
 */
import { createHash } from 'node:crypto';
import { chmodSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AdminResult, parseAdmin, runAdmin } from './adminCommands';
import { type Db, dataLockOf } from './db';
import type { Logger } from './logger';

/** Longest Unix socket path every system takes (sun_path is 104 bytes on macOS, 108 on Linux). */
const MAX_SOCKET_PATH = 100;

export function adminSocketPath(dataDir: string): string {
  const hash = createHash('sha256').update(dataDir).digest('hex').slice(0, 16);
  if (process.platform === 'win32') return `\\\\.\\pipe\\topline-admin-${hash}`;
  const inDataDir = join(dataDir, 'admin.sock');
  return Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH ? inDataDir : join(tmpdir(), `topline-admin-${hash}.sock`);
}

/**
 * Serves admin commands on the embedded database `db` (opened from DATA_DIR, whose lock this process holds) and
 * announces the socket in the lock file. Answers a function that stops serving.
 */
export async function serveAdminChannel(
  db: Db,
  dataDir: string,
  logger: Logger,
  now: () => Date = () => new Date(),
): Promise<() => Promise<void>> {
  const lock = dataLockOf(db);
  if (!lock) throw new Error('the admin channel serves an embedded database opened from a folder');
  const path = adminSocketPath(dataDir);
  // This process holds the lock, so a socket left at the path is a dead process's.
  if (process.platform !== 'win32') {
    try {
      unlinkSync(path);
    } catch {
      // none
    }
  }
  const server: Server = createServer((socket) => {
    let request = '';
    socket.setEncoding('utf8');
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (request.length > 10_000) socket.destroy();
      if (!request.includes('\n')) return;
      socket.removeAllListeners('data');
      void answer(request.slice(0, request.indexOf('\n'))).then((result) => socket.end(`${JSON.stringify(result)}\n`));
    });
  });
  const answer = async (line: string): Promise<AdminResult> => {
    let args: unknown;
    try {
      args = (JSON.parse(line) as { args?: unknown }).args;
    } catch {
      args = undefined;
    }
    const command = Array.isArray(args) && args.every((a) => typeof a === 'string') ? parseAdmin(args) : null;
    if (!command) return { code: 2, out: '', err: 'The server could not read the admin command.' };
    try {
      const result = await runAdmin(db, command, now());
      logger.info(`admin command ${command.command} (${result.code === 0 ? 'done' : 'refused'})`);
      return result;
    } catch (error) {
      logger.error('admin command failed', error);
      return { code: 1, out: '', err: 'The server could not run the command; see its log.' };
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  if (process.platform !== 'win32') chmodSync(path, 0o600);
  lock.announce(path);
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
    });
}

/**
 * Sends the CLI's arguments to the server listening at `socket`.
 * @throws Error when the server cannot be reached or does not answer within `timeoutMs`
 */
export function sendAdminCommand(socket: string, args: readonly string[], timeoutMs = 15_000): Promise<AdminResult> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let reply = '';
    connection.setEncoding('utf8');
    connection.setTimeout(timeoutMs, () => connection.destroy(new Error('the server did not answer')));
    connection.on('connect', () => connection.write(`${JSON.stringify({ args })}\n`));
    connection.on('data', (chunk: string) => {
      reply += chunk;
    });
    connection.on('error', reject);
    connection.on('close', () => {
      try {
        const result = JSON.parse(reply) as AdminResult;
        if (typeof result.code !== 'number') throw new Error('no exit code');
        resolve(result);
      } catch {
        reject(new Error('the server closed the admin channel without an answer'));
      }
    });
  });
}
