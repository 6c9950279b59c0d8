import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildServer } from '../buildServer';

/** The built server (`npm run serve`) in a child process, reading its JSON log lines. */
export interface BuiltServer {
  url: string;
  child: ChildProcess;
  exited: Promise<number | NodeJS.Signals | null>;
  /** Every line it wrote to stdout so far, parsed (the JSON log). */
  lines(): Record<string, unknown>[];
  /** Everything it wrote to stdout and stderr so far, as written. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/**
 * Builds the server into a folder of its own beside `api/dist/server` (at the same depth, as the built files find
 * the repository's folders from their own) and resolves with the folder and its removal.
 */
export async function buildServerForTest(): Promise<{ dir: string; remove: () => void }> {
  const dir = resolve(ROOT, 'api', 'dist', `test-${randomBytes(4).toString('hex')}`);
  await buildServer(dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts `main.js` of a build with NODE_ENV=production and this environment, and resolves once it logs that it
 * listens.
 * @throws Error with its output when it exits or stays silent for `timeoutMs`
 */
export function startBuiltServer(dir: string, env: Record<string, string>, timeoutMs = 90_000): Promise<BuiltServer> {
  const child = spawn(process.execPath, ['--enable-source-maps', resolve(dir, 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | NodeJS.Signals | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const lines = () =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      void kill('SIGKILL');
      reject(new Error(`the built server did not start within ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the built server ended (${how}) before it listened: ${output}`));
    });
    child.stdout?.on('data', () => {
      const port = lines().find((line) => line.msg === `listening on port ${String(line.port)}`)?.port;
      if (typeof port !== 'number') return;
      clearTimeout(timer);
      resolveStart({ url: `http://127.0.0.1:${port}`, child, exited, lines, output: () => output, kill });
    });
  });
}
