import type { IncomingMessage, ServerResponse } from 'node:http';

/** The HTTP pieces every Google endpoint here shares: request bodies, JSON answers, Google's error statuses. */

/** A refusal as Google answers it: an HTTP status, a message and Google's status name. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly statusText = status === 404 ? 'NOT_FOUND' : status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT',
  ) {
    super(message);
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function jsonBody(request: IncomingMessage): Promise<unknown> {
  const body = await text(request);
  try {
    return body ? JSON.parse(body) : {};
  } catch {
    throw new Refusal(400, 'Invalid JSON payload received.');
  }
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
