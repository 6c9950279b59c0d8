import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';

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

/**
 * Stops a server the way a service stops on SIGTERM: it takes no new connection, every request it has started is
 * answered (and its connection then closed), and `settled` (queued plan writes) is awaited; after `timeoutMs` the
 * connections left are cut. Resolves true when everything finished in time.
 */
export async function drain(server: Server, timeoutMs: number, settled: () => Promise<void>): Promise<boolean> {
  // Answers written from now on close their connection, so that a keep-alive client moves on to another process.
  server.on('request', (_request, response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('Connection', 'close');
  });
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A connection whose answer was already on its way when the drain began goes idle afterwards: closed as it does.
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const finished = await Promise.race([closed.then(settled).then(() => true), late]);
    if (!finished) server.closeAllConnections();
    return finished;
  } finally {
    clearInterval(idle);
    clearTimeout(timer);
  }
}
