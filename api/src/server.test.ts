import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEEP_ALIVE_MS, listen } from './server';

/**
 * The server keeps idle connections open longer than the clients and proxies in front of it do, so a request written
 * to a pooled connection never meets a connection the server has just closed.
 */
let url: string;
let close: () => Promise<void>;
let connections = 0;

beforeAll(async () => {
  const server = await listen((_request, response) => {
    response.end('ok');
  }, 0);
  server.on('connection', () => {
    connections++;
  });
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});
afterAll(() => close());

describe('the HTTP server', () => {
  it('tells clients it keeps idle connections 65 s, longer than a load balancer’s 60 s', async () => {
    const response = await fetch(url);
    await response.text();
    expect(KEEP_ALIVE_MS).toBe(65_000);
    expect(response.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('answers on the same connection after it sat idle past Node’s default of 5 s', async () => {
    await (await fetch(url)).text();
    const before = connections;
    await sleep(5_500);
    const response = await fetch(url);
    expect(await response.text()).toBe('ok');
    expect(connections).toBe(before);
  }, 15_000);
});
