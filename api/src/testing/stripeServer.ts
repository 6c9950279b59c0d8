import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Stripe from 'stripe';

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

export interface Card {
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface PriceDef {
  id: string;
  /** In the currency's minor unit (cents; yen have none). */
  unit_amount: number;
  currency: string;
  interval: 'month' | 'year';
  /** The price in other currencies, by lower-case ISO code. */
  currency_options?: Record<string, { unit_amount: number }>;
}

/**
 * The spec's prices (product-and-account.md section 9) as the tests configure them, in yen with the dollars in
 * `currency_options` (in cents): Basic 9,980 yen or $98 a month; yearly 8,483 x 12 = 101,796 yen or $84 x 12 = $1,008;
 * Team 14,980 yen or $149; yearly 12,733 x 12 = 152,796 yen or $127 x 12 = $1,524. Fresh objects on each call: the
 * stand-in serves the objects it is given, and a test may change one.
 */
export const specPrices = (): PriceDef[] => [
  {
    id: 'price_basic_month',
    unit_amount: 9980,
    currency: 'jpy',
    interval: 'month',
    currency_options: { usd: { unit_amount: 9800 } },
  },
  {
    id: 'price_basic_year',
    unit_amount: 101_796,
    currency: 'jpy',
    interval: 'year',
    currency_options: { usd: { unit_amount: 100_800 } },
  },
  {
    id: 'price_team_month',
    unit_amount: 14_980,
    currency: 'jpy',
    interval: 'month',
    currency_options: { usd: { unit_amount: 14_900 } },
  },
  {
    id: 'price_team_year',
    unit_amount: 152_796,
    currency: 'jpy',
    interval: 'year',
    currency_options: { usd: { unit_amount: 152_400 } },
  },
];

type Params = { [key: string]: Param };
type Param = string | Params | Param[];

interface Customer {
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  invoice_settings: { default_payment_method: string | null };
  created: number;
}

interface Subscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  created: number;
  default_payment_method: string | null;
  metadata: Record<string, string>;
  trial_end: number | null;
  /** The currency every invoice of the subscription is in; it never changes. */
  currency: string;
  items: { object: 'list'; data: SubscriptionItem[]; has_more: false; url: string };
  latest_invoice: string | null;
}

interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  price: ReturnType<typeof priceObject>;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
}

interface Session {
  id: string;
  object: 'checkout.session';
  mode: 'subscription' | 'setup';
  customer: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  status: 'open' | 'complete';
  /** The currency charged: the one asked for, or the price's own. */
  currency: string | null;
  url: string;
  success_url: string;
  cancel_url: string;
  subscription: string | null;
  setup_intent: string | null;
  line_items: { price: string; quantity: number }[];
  subscription_data: { trial_end: number | null; metadata: Record<string, string> };
  allowed_payment_method_types: string[];
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: object };
}

const DAY = 86_400;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** A price as Stripe answers it: `currency_options` only when expanded (Stripe's "includable" field). */
function priceObject(price: PriceDef, withOptions = false) {
  return {
    id: price.id,
    object: 'price' as const,
    active: true,
    currency: price.currency,
    unit_amount: price.unit_amount,
    recurring: { interval: price.interval, interval_count: 1 },
    type: 'recurring' as const,
    ...(withOptions
      ? {
          currency_options: {
            [price.currency]: { unit_amount: price.unit_amount, tax_behavior: 'unspecified' },
            ...Object.fromEntries(
              Object.entries(price.currency_options ?? {}).map(([currency, option]) => [
                currency,
                { unit_amount: option.unit_amount, tax_behavior: 'unspecified' },
              ]),
            ),
          },
        }
      : {}),
  };
}

/** The price's amount in a currency (its own, or one of its `currency_options`); undefined when it has none. */
export function amountIn(price: PriceDef, currency: string): number | undefined {
  const code = currency.toLowerCase();
  return code === price.currency ? price.unit_amount : price.currency_options?.[code]?.unit_amount;
}

/** Stripe's currencies without a minor unit, of those the tests use. */
const ZERO_DECIMAL = new Set(['jpy', 'krw']);
/** An amount in minor units as the hosted pages show it: 14980 JPY, 1008.00 USD. */
const shownAmount = (amount: number, currency: string) =>
  `${ZERO_DECIMAL.has(currency) ? String(amount) : (amount / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** `a[b][0][c]=v&...` as Stripe reads it: nested objects, arrays from numeric indices. */
export function parseForm(text: string): Params {
  const root: Params = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const [rawKey = '', rawValue = ''] = pair.split('=');
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    const path = [key.replace(/\[.*$/, ''), ...[...key.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '')];
    let node: Params | Param[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const index = /^\d+$/.test(part) ? Number(part) : part;
      const container = node as Record<string | number, Param>;
      if (last) container[index] = value;
      else {
        container[index] ??= /^\d+$/.test(path[i + 1] ?? '') ? [] : {};
        node = container[index] as Params | Param[];
      }
    });
  }
  return root;
}

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; code?: string; message: string; param?: string },
  ) {
    super(body.message);
  }
}

const missing = (what: string, id: string) =>
  new StripeFailure(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${id}'`,
  });

const text = (params: Params, key: string): string | undefined => {
  const value = params[key];
  return typeof value === 'string' ? value : undefined;
};
const record = (value: Param | undefined): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : {};
const list = (value: Param | undefined): Params[] =>
  Array.isArray(value) ? value.filter((v): v is Params => typeof v === 'object' && !Array.isArray(v)) : [];

export async function startStripeStandIn(prices: PriceDef[]): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const pricesById = new Map(prices.map((p) => [p.id, p]));
  const customers = new Map<string, Customer>();
  const subscriptions = new Map<string, Subscription>();
  const sessions = new Map<string, Session>();
  const setupIntents = new Map<
    string,
    { id: string; object: 'setup_intent'; customer: string; payment_method: string; status: string }
  >();
  const paymentMethods = new Map<
    string,
    { id: string; object: 'payment_method'; type: 'card'; customer: string; card: Card & { brand: string } }
  >();
  const invoices: {
    id: string;
    object: 'invoice';
    customer: string;
    subscription: string;
    status: string;
    created: number;
    total: number;
    amount_paid: number;
    currency: string;
    hosted_invoice_url: string;
    invoice_pdf: string;
  }[] = [];
  const calls: StripeStandIn['calls'] = [];
  let url = '';

  const priceOf = (id: string) => {
    const price = pricesById.get(id);
    if (!price) throw missing('price', id);
    return price;
  };
  /** The price's amount in the currency, or Stripe's refusal naming the parameter. */
  const chargeOf = (price: PriceDef, currency: string, param: string) => {
    const amount = amountIn(price, currency);
    if (amount === undefined) {
      throw new StripeFailure(400, {
        type: 'invalid_request_error',
        message: `The price specified (${price.id}) does not support the currency ${currency}.`,
        param,
      });
    }
    return amount;
  };
  const subscriptionOf = (id: string) => {
    const subscription = subscriptions.get(id);
    if (!subscription) throw missing('subscription', id);
    return subscription;
  };
  const customerOf = (id: string) => {
    const customer = customers.get(id);
    if (!customer) throw missing('customer', id);
    return customer;
  };
  const itemFor = (price: PriceDef, start: number): SubscriptionItem => ({
    id: newId('si'),
    object: 'subscription_item',
    price: priceObject(price),
    quantity: 1,
    current_period_start: start,
    current_period_end: start + (price.interval === 'year' ? 365 : 30) * DAY,
  });
  const invoiceFor = (subscription: Subscription, status: 'paid' | 'open') => {
    const item = subscription.items.data[0];
    const price = item ? pricesById.get(item.price.id) : undefined;
    const unit = price ? (amountIn(price, subscription.currency) ?? 0) : (item?.price.unit_amount ?? 0);
    // Nothing is due during a trial.
    const amount = subscription.status === 'trialing' ? 0 : unit;
    const id = newId('in');
    const invoice = {
      id,
      object: 'invoice' as const,
      customer: subscription.customer,
      subscription: subscription.id,
      status,
      created: nowSeconds() + invoices.length,
      total: amount,
      amount_paid: status === 'paid' ? amount : 0,
      currency: subscription.currency,
      hosted_invoice_url: `${url}/invoices/${id}`,
      invoice_pdf: `${url}/invoices/${id}.pdf`,
    };
    invoices.push(invoice);
    subscription.latest_invoice = id;
    return invoice;
  };
  const newCard = (customer: string, card: Card) => {
    const id = newId('pm');
    paymentMethods.set(id, { id, object: 'payment_method', type: 'card', customer, card: { ...card, brand: 'visa' } });
    return id;
  };
  const expanded = (subscription: Subscription, expand: string[]) =>
    expand.includes('data.default_payment_method') || expand.includes('default_payment_method')
      ? {
          ...subscription,
          default_payment_method: subscription.default_payment_method
            ? (paymentMethods.get(subscription.default_payment_method) ?? null)
            : null,
        }
      : subscription;
  const listOf = <T>(path: string, data: T[]) => ({ object: 'list', data, has_more: false, url: path });
  const event = (type: string, object: object): StripeEvent => ({
    id: newId('evt'),
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: structuredClone(object) },
  });

  const route = (method: string, path: string, params: Params): unknown => {
    const expand = Array.isArray(params.expand) ? params.expand.filter((e): e is string => typeof e === 'string') : [];
    /** The id in a path of this pattern, or undefined. */
    const idIn = (pattern: RegExp) => path.match(pattern)?.[1];
    const customerId = idIn(/^\/v1\/customers\/([^/]+)$/);
    const subscriptionId = idIn(/^\/v1\/subscriptions\/([^/]+)$/);
    const setupIntentId = idIn(/^\/v1\/setup_intents\/([^/]+)$/);
    const priceId = idIn(/^\/v1\/prices\/([^/]+)$/);
    const withOptions = expand.includes('currency_options');
    if (method === 'POST' && path === '/v1/prices') {
      const currency = text(params, 'currency');
      const amount = Number(text(params, 'unit_amount'));
      const interval = text((params.recurring ?? {}) as Params, 'interval');
      if (!currency || !Number.isInteger(amount) || (interval !== 'month' && interval !== 'year')) {
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          message: 'A recurring price needs currency, unit_amount and recurring[interval] (month or year).',
        });
      }
      const options: Record<string, { unit_amount: number }> = {};
      for (const [code, option] of Object.entries((params.currency_options ?? {}) as Params)) {
        const value = Number(text(option as Params, 'unit_amount'));
        if (!Number.isInteger(value) || value < 0) {
          throw new StripeFailure(400, {
            type: 'invalid_request_error',
            message: 'Invalid integer',
            param: `currency_options[${code}][unit_amount]`,
          });
        }
        options[code] = { unit_amount: value };
      }
      const price: PriceDef = {
        id: text(params, 'lookup_key') ?? newId('price'),
        unit_amount: amount,
        currency,
        interval,
        currency_options: options,
      };
      pricesById.set(price.id, price);
      return priceObject(price, withOptions);
    }
    if (method === 'GET' && priceId) return priceObject(priceOf(priceId), withOptions);
    if (method === 'POST' && path === '/v1/customers') {
      const customer: Customer = {
        id: newId('cus'),
        object: 'customer',
        email: text(params, 'email') ?? null,
        name: text(params, 'name') ?? null,
        metadata: record(params.metadata),
        invoice_settings: { default_payment_method: null },
        created: nowSeconds(),
      };
      customers.set(customer.id, customer);
      return customer;
    }
    if (method === 'POST' && customerId) {
      const customer = customerOf(customerId);
      const settings = params.invoice_settings as Params | undefined;
      const method = settings ? text(settings, 'default_payment_method') : undefined;
      if (method !== undefined) customer.invoice_settings.default_payment_method = method || null;
      return customer;
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const customer = text(params, 'customer');
      const status = text(params, 'status') ?? 'active';
      const found = [...subscriptions.values()]
        .filter((s) => !customer || s.customer === customer)
        .filter((s) => status === 'all' || s.status === status || (status === 'active' && s.status === 'active'))
        .sort((a, b) => b.created - a.created)
        .slice(0, Number(text(params, 'limit') ?? 10));
      return listOf(
        path,
        found.map((s) => expanded(s, expand)),
      );
    }
    if (subscriptionId) {
      const subscription = subscriptionOf(subscriptionId);
      if (method === 'GET') return expanded(subscription, expand);
      if (subscription.status === 'canceled') {
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          message: 'A canceled subscription can only update its cancellation_details and metadata.',
        });
      }
      const items = list(params.items);
      for (const change of items) {
        const price = priceOf(text(change, 'price') ?? '');
        // A subscription's currency never changes: the new price must have it.
        chargeOf(price, subscription.currency, 'items[0][price]');
        const index = subscription.items.data.findIndex((i) => i.id === text(change, 'id'));
        const start = subscription.items.data[0]?.current_period_start ?? nowSeconds();
        const item = {
          ...itemFor(price, start),
          ...(index >= 0 ? { id: subscription.items.data[index]?.id ?? '' } : {}),
        };
        if (index >= 0) subscription.items.data[index] = item;
        else subscription.items.data.push(item);
      }
      const cancel = text(params, 'cancel_at_period_end');
      if (cancel !== undefined) subscription.cancel_at_period_end = cancel === 'true';
      const card = text(params, 'default_payment_method');
      if (card !== undefined) subscription.default_payment_method = card || null;
      return expanded(subscription, expand);
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const customer = text(params, 'customer');
      const found = invoices
        .filter((i) => !customer || i.customer === customer)
        .sort((a, b) => b.created - a.created)
        .slice(0, Number(text(params, 'limit') ?? 10));
      return listOf(path, found);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const mode = text(params, 'mode');
      if (mode !== 'subscription' && mode !== 'setup') {
        throw new StripeFailure(400, { type: 'invalid_request_error', message: 'Invalid mode', param: 'mode' });
      }
      const customer = text(params, 'customer') ?? null;
      if (customer) customerOf(customer);
      const lineItems = list(params.line_items).map((l) => ({
        price: priceOf(text(l, 'price') ?? '').id,
        quantity: Number(text(l, 'quantity') ?? 1),
      }));
      const asked = text(params, 'currency')?.toLowerCase();
      const first = lineItems[0] ? priceOf(lineItems[0].price) : undefined;
      if (asked) for (const line of lineItems) chargeOf(priceOf(line.price), asked, 'currency');
      if (mode === 'subscription' && lineItems.length === 0) {
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          message: 'You must specify `line_items` in `subscription` mode.',
          param: 'line_items',
        });
      }
      const data = (params.subscription_data ?? {}) as Params;
      const trialEnd = text(data, 'trial_end');
      if (trialEnd !== undefined && Number(trialEnd) < nowSeconds() + 2 * DAY) {
        throw new StripeFailure(400, {
          type: 'invalid_request_error',
          message: '`subscription_data[trial_end]` must be at least 48 hours in the future.',
          param: 'subscription_data[trial_end]',
        });
      }
      const id = newId('cs_test');
      const session: Session = {
        id,
        object: 'checkout.session',
        mode,
        customer,
        client_reference_id: text(params, 'client_reference_id') ?? null,
        metadata: record(params.metadata),
        status: 'open',
        currency: asked ?? first?.currency ?? null,
        url: `${url}/c/pay/${id}`,
        success_url: text(params, 'success_url') ?? '',
        cancel_url: text(params, 'cancel_url') ?? '',
        subscription: null,
        setup_intent: null,
        line_items: lineItems,
        subscription_data: { trial_end: trialEnd ? Number(trialEnd) : null, metadata: record(data.metadata) },
        allowed_payment_method_types: (params.allowed_payment_method_types as string[] | undefined) ?? [],
      };
      sessions.set(id, session);
      return session;
    }
    if (method === 'GET' && setupIntentId) {
      const intent = setupIntents.get(setupIntentId);
      if (!intent) throw missing('setup_intent', setupIntentId);
      return intent;
    }
    throw new StripeFailure(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  };

  /** Sends events one after another to the webhook endpoint, signed; an answer other than 2xx is an error. */
  const deliver = async (events: StripeEvent[]) => {
    for (const sent of events) {
      const payload = JSON.stringify(sent);
      const answer = await fetch(standIn.webhookUrl ?? '', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': sign(payload) },
        body: payload,
      });
      if (!answer.ok) throw new Error(`the webhook endpoint answered ${answer.status} to ${sent.type}`);
    }
  };

  /** Stripe's hosted pages, for a browser (no API key): Checkout and invoices. Undefined for an API path. */
  const hostedPage = (
    method: string,
    path: string,
    form: Params,
  ): Promise<{ status: number; headers: Record<string, string>; body?: string }> | undefined => {
    const checkout = path.match(/^\/c\/pay\/([^/]+)$/)?.[1];
    const invoiceId = path.match(/^\/invoices\/([^/.]+)(\.pdf)?$/)?.[1];
    if (!standIn.webhookUrl || (!checkout && !invoiceId)) return undefined;
    const html = (status: number, body: string) => ({
      status,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stripe stand-in</title></head><body>${body}</body></html>`,
    });
    if (invoiceId) {
      const invoice = invoices.find((i) => i.id === invoiceId);
      if (!invoice) return Promise.resolve(html(404, '<h1>No such invoice</h1>'));
      return Promise.resolve(
        html(
          200,
          `<h1>Invoice ${escapeHtml(invoice.id)}</h1><p data-test="invoice-total">${invoice.total} ${escapeHtml(invoice.currency.toUpperCase())}</p><p>${escapeHtml(invoice.status)}</p>`,
        ),
      );
    }
    const session = sessions.get(checkout ?? '');
    if (session?.status !== 'open') {
      return Promise.resolve(html(404, '<h1>This Checkout session is no longer available</h1>'));
    }
    if (method === 'POST') {
      return (async () => {
        // The card typed on the page: its last four digits, expiring at the end of 2030.
        const digits = (text(form, 'card') ?? '').replace(/\D/g, '');
        const card = { last4: digits.length >= 4 ? digits.slice(-4) : '4242', exp_month: 12, exp_year: 2030 };
        await deliver(standIn.completeCheckout(session.id, card));
        return { status: 303, headers: { Location: session.success_url } };
      })();
    }
    const line = session.line_items[0];
    const price = line ? pricesById.get(line.price) : undefined;
    const what =
      session.mode === 'setup'
        ? '<h1>Save a card</h1>'
        : `<h1>Subscribe</h1><p data-test="checkout-price">${escapeHtml(shownAmount(price ? (amountIn(price, session.currency ?? price.currency) ?? 0) : 0, session.currency ?? ''))} / ${escapeHtml(price?.interval ?? '')}</p>`;
    return Promise.resolve(
      html(
        200,
        `${what}<form method="post" action="/c/pay/${escapeHtml(session.id)}"><label>Card number <input name="card" value="4242 4242 4242 4242"></label><button type="submit">${session.mode === 'setup' ? 'Save card' : 'Pay'}</button></form><a href="${escapeHtml(session.cancel_url)}">Back</a>`,
      ),
    );
  };

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
      const hosted = hostedPage(method, target.pathname, params);
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
        answer = route(method, target.pathname, params);
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
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const signer = new Stripe(secretKey);
  const sign = (payload: string, secret = webhookSecret) =>
    signer.webhooks.generateTestHeaderString({ payload, secret });

  const standIn: StripeStandIn = {
    url,
    secretKey,
    webhookSecret,
    webhookUrl: null,
    reachable: true,
    send: (events) => deliver(events),
    calls,
    customers,
    subscriptions,
    sessions,
    event,
    sign,
    completeCheckout(sessionId, card = { last4: '4242', exp_month: 12, exp_year: 2030 }) {
      const session = sessions.get(sessionId);
      if (session?.status !== 'open' || !session.customer) throw new Error(`no open session ${sessionId}`);
      session.status = 'complete';
      const customer = customerOf(session.customer);
      const method = newCard(customer.id, card);
      if (session.mode === 'setup') {
        const intent = {
          id: newId('seti'),
          object: 'setup_intent' as const,
          customer: customer.id,
          payment_method: method,
          status: 'succeeded',
        };
        setupIntents.set(intent.id, intent);
        session.setup_intent = intent.id;
        return [event('checkout.session.completed', session)];
      }
      const line = session.line_items[0];
      const price = priceOf(line?.price ?? '');
      const start = nowSeconds();
      const trialEnd = session.subscription_data.trial_end;
      const subscription: Subscription = {
        id: newId('sub'),
        object: 'subscription',
        customer: customer.id,
        status: trialEnd ? 'trialing' : 'active',
        cancel_at_period_end: false,
        created: start + subscriptions.size,
        default_payment_method: method,
        metadata: session.subscription_data.metadata,
        trial_end: trialEnd,
        currency: session.currency ?? price.currency,
        items: {
          object: 'list',
          data: [itemFor(price, trialEnd ?? start)],
          has_more: false,
          url: '/v1/subscription_items',
        },
        latest_invoice: null,
      };
      subscriptions.set(subscription.id, subscription);
      session.subscription = subscription.id;
      const invoice = invoiceFor(subscription, 'paid');
      return [
        event('checkout.session.completed', session),
        event('customer.subscription.created', subscription),
        event('invoice.paid', invoice),
      ];
    },
    failPayment(subscriptionId) {
      const subscription = subscriptionOf(subscriptionId);
      subscription.status = 'past_due';
      const invoice = invoiceFor(subscription, 'open');
      return [event('invoice.payment_failed', invoice), event('customer.subscription.updated', subscription)];
    },
    payInvoice(subscriptionId) {
      const subscription = subscriptionOf(subscriptionId);
      const open = invoices.find((i) => i.subscription === subscriptionId && i.status === 'open');
      if (open) {
        open.status = 'paid';
        open.amount_paid = open.total;
      }
      subscription.status = 'active';
      return [
        event('invoice.paid', open ?? invoiceFor(subscription, 'paid')),
        event('customer.subscription.updated', subscription),
      ];
    },
    endSubscription(subscriptionId) {
      const subscription = subscriptionOf(subscriptionId);
      subscription.status = 'canceled';
      return [event('customer.subscription.deleted', subscription)];
    },
    changePrice(subscriptionId, priceId) {
      const subscription = subscriptionOf(subscriptionId);
      const item = subscription.items.data[0];
      const price = pricesById.get(priceId) ?? { id: priceId, unit_amount: 1, currency: 'jpy', interval: 'month' };
      subscription.items.data[0] = {
        ...itemFor(price, item?.current_period_start ?? nowSeconds()),
        id: item?.id ?? newId('si'),
      };
      return [event('customer.subscription.updated', subscription)];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
