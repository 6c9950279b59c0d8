import type { Server } from 'node:http';
import { createApp } from '../app';
import type { Config } from '../config';
import type { AppDeps } from '../deps';
import { listen } from '../server';
import type { TestApi } from './harness';

export interface AnotherProcess {
  url: string;
  close(): Promise<void>;
}

/**
 * A second API process for tests: another app over HTTP on the same database as `api`, with a clock and settings of
 * its own. E-mail it sends goes nowhere.
 */
export async function anotherProcess(
  api: TestApi,
  options: { now?: () => Date; config?: Partial<Config> } = {},
): Promise<AnotherProcess> {
  const deps: AppDeps = {
    db: api.db,
    config: { ...api.config, ...options.config },
    mailer: { send: async () => {} },
    logger: { info: () => {}, error: () => {} },
    ...(options.now ? { now: options.now } : {}),
  };
  const server: Server = await listen(createApp(deps).callback(), 0, '127.0.0.1');
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
