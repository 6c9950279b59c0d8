import { createServer, type RequestListener, type Server } from 'node:http';

/** Listens on a port and resolves once the server accepts connections; nothing else happens here. */
export function listen(handler: RequestListener, port: number, host?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler);
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
