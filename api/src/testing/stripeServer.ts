import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { route } from './stripe/api';
import { hostedPage } from './stripe/hostedPages';
import type { Card, Customer, Session, StripeEvent, Subscription } from './stripe/objects';
import type { PriceDef } from './stripe/prices';
import { type Params, parseForm, StripeFailure } from './stripe/protocol';
import { createStripeStore, newId } from './stripe/store';
import { deliver, webhookSigner } from './stripe/webhooks';

export type { Card, StripeEvent } from './stripe/objects';
export { amountIn, type PriceDef, specPrices } from './stripe/prices';
export { parseForm } from './stripe/protocol';

/**
 * A small server that speaks Stripe's REST protocol for the calls the API makes (customers, subscriptions,
 * invoices, Checkout sessions, setup intents, prices), reached through STRIPE_API_BASE: form-encoded bodies with
 * bracketed keys, prefixed ids, list objects, `expand[]`, and Stripe's error bodies. A price may carry other
 * currencies in `currency_options` (returned when expanded, as Stripe does); a Checkout session's `currency` picks
 * one, and the subscription and its invoices are charged in it from then on. What a person does on Stripe's hosted pages
 * (paying, saving a card) and what Stripe does on its own (renewals, failed payments, cancellations) are methods here;
 * each answers the events Stripe would send, for the test to sign and deliver. With `webhookUrl` set it also serves
 * Stripe's hosted pages for a browser: the Checkout page at a session's `url` (paying completes the session, sends
 * the signed events to the webhook endpoint and redirects to the session's `success_url`; leaving goes to its
 * `cancel_url`) and an invoice's page at its `hosted_invoice_url`.
 */
export interface StripeStandIn {
  /** The base URL for STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every API call received, in order. */
  calls: { method: string; path: string; params: Params }[];
  customers: Map<string, Customer>;
  subscriptions: Map<string, Subscription>;
  sessions: Map<string, Session>;
  /**
   * While false, every API call's connection is dropped unanswered, as when Stripe cannot be reached (the hosted
   * pages are still served).
   */
  reachable: boolean;
  /** The person pays on the Checkout page: a subscription (mode subscription) or a saved card (mode setup). */
  completeCheckout(sessionId: string, card?: Card): StripeEvent[];
  /** A renewal's payment fails: the subscription goes past_due. */
  failPayment(subscriptionId: string): StripeEvent[];
  /** A payment goes through after all: the subscription is active again. */
  payInvoice(subscriptionId: string): StripeEvent[];
  /** The subscription ends (the end of a cancelled period, or Stripe giving up). */
  endSubscription(subscriptionId: string): StripeEvent[];
  /** Someone changes the subscription's price in Stripe's dashboard. */
  changePrice(subscriptionId: string, priceId: string): StripeEvent[];
  /** An event as Stripe sends it, for any object. */
  event(type: string, object: object): StripeEvent;
  /** The Stripe-Signature header of a payload, as Stripe signs it. */
  sign(payload: string, secret?: string): string;
  /**
   * Where the hosted Checkout page sends its events, signed, as Stripe sends them to a webhook endpoint. Until it is
   * set the page is not served (API tests complete sessions with `completeCheckout` and deliver the events).
   */
  webhookUrl: string | null;
  /** Sends events to `webhookUrl`, one after another, signed as Stripe signs them; throws unless each is taken. */
  send(events: StripeEvent[]): Promise<void>;
  close(): Promise<void>;
}

export async function startStripeStandIn(prices: PriceDef[]): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const store = createStripeStore(prices);
  const calls: StripeStandIn['calls'] = [];
  const sign = webhookSigner(secretKey, webhookSecret);
  const sendEvents = (events: StripeEvent[]) => deliver(standIn.webhookUrl, events, sign);

  /** The answers of POSTs sent with an Idempotency-Key, by path and key, with the body they were sent with. */
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = new URL(req.url ?? '/', 'http://stand-in');
      const method = req.method ?? 'GET';
      const body = Buffer.concat(chunks).toString('utf8');
      const params = parseForm(method === 'GET' ? target.search.slice(1) : body);
      const hosted = hostedPage(
        store,
        standIn.webhookUrl,
        (sessionId, card) => sendEvents(standIn.completeCheckout(sessionId, card)),
        method,
        target.pathname,
        params,
      );
      if (hosted) {
        hosted.then(
          (page) => {
            res.writeHead(page.status, page.headers);
            res.end(page.body ?? '');
          },
          (error: unknown) => {
            res.writeHead(500, { 'Content-Type': 'text/plain' });
            res.end(String(error));
          },
        );
        return;
      }
      if (!standIn.reachable) {
        req.socket.destroy();
        return;
      }
      calls.push({ method, path: target.pathname, params });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': newId('req') });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
        return;
      }
      // A POST with an Idempotency-Key is answered once: a repeat gets the first answer, as Stripe does (for a day).
      const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
      const keyed = typeof key === 'string' ? `${target.pathname} ${key}` : undefined;
      const earlier = keyed ? idempotent.get(keyed) : undefined;
      if (earlier) {
        if (earlier.body !== body) {
          send(400, {
            error: {
              type: 'idempotency_error',
              message:
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            },
          });
        } else send(earlier.status, earlier.answer);
        return;
      }
      let status = 200;
      let answer: unknown;
      try {
        answer = route(store, method, target.pathname, params);
      } catch (error) {
        status = error instanceof StripeFailure ? error.status : 500;
        answer = {
          error: error instanceof StripeFailure ? error.body : { type: 'api_error', message: String(error) },
        };
      }
      if (keyed && status < 500) idempotent.set(keyed, { body, status, answer });
      send(status, answer);
    });
  });
  // Stripe keeps idle connections open far longer than Node's 5-second default, which would close a kept-alive
  // socket just as the SDK reuses it after a few seconds' work (a reset the API would take for Stripe failing).
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  store.url = url;

  const standIn: StripeStandIn = {
    url,
    secretKey,
    webhookSecret,
    webhookUrl: null,
    reachable: true,
    send: sendEvents,
    calls,
    customers: store.customers,
    subscriptions: store.subscriptions,
    sessions: store.sessions,
    event: store.event,
    sign,
    completeCheckout: store.completeCheckout,
    failPayment: store.failPayment,
    payInvoice: store.payInvoice,
    endSubscription: store.endSubscription,
    changePrice: store.changePrice,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
