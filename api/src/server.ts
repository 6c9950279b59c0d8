import { createServer, type RequestListener, type Server } from 'node:http';

/**
 * How long an idle keep-alive connection stays open. Longer than the idle timeout of the proxies and load balancers in
 * front (commonly 60 s), so that the server never closes a connection a client or proxy is about to reuse: Node's
 * default of 5 s races with clients that keep idle connections for 4 s on coarse timers, and the request written to a
 * connection the server has just closed fails with "other side closed" or EPIPE.
 */
export const KEEP_ALIVE_MS = 65_000;

/** Listens on a port and resolves once the server accepts connections; nothing else happens here. */
export function listen(handler: RequestListener, port: number, host?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS, headersTimeout: KEEP_ALIVE_MS + 1_000 }, handler);
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
