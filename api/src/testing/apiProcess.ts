import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The API in a child process (`serve.ts`), which a test may kill at any moment. */
export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** Resolves when the process has ended, with its exit code or signal. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Ends the process with a signal and waits until it has. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SERVE = resolve(import.meta.dirname, 'serve.ts');

/**
 * Starts `serve.ts` with this environment and resolves once it listens.
 * @throws Error with its stderr when it exits or stays silent for `timeoutMs`
 */
export function startApiProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<ApiProcess> {
  // Node itself with tsx's loader, not the tsx command: that one runs the script in a child of its own, which a
  // SIGKILL of the command would leave running. The young generation as `npm start` sizes it (`api/README.md`).
  const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', SERVE], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | NodeJS.Signals | null>((done) =>
    child.once('exit', (code, signal) => done(signal ?? code)),
  );
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      void kill('SIGKILL');
      reject(new Error(`the API process did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the API process ended (${how}) before it listened: ${stderr}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening (http:\/\/\S+)/.exec(stdout)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolveStart({ url, child, exited, stderr: () => stderr, kill });
    });
  });
}
