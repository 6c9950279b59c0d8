import type { Customer, Session } from './objects';
import { type PriceDef, priceObject } from './prices';
import { list, missing, type Params, record, StripeFailure, text } from './protocol';
import { DAY, newId, nowSeconds, type StripeStore } from './store';

const listOf = <T>(path: string, data: T[]) => ({ object: 'list', data, has_more: false, url: path });

/**
 * Stripe's REST API for the calls the API makes: prices, customers, subscriptions, invoices, Checkout sessions and
 * setup intents. The answer to one request, or a StripeFailure with Stripe's status and error body.
 */
export function route(store: StripeStore, method: string, path: string, params: Params): unknown {
  const {
    pricesById,
    customers,
    subscriptions,
    sessions,
    setupIntents,
    invoices,
    priceOf,
    chargeOf,
    subscriptionOf,
    customerOf,
    itemFor,
    expanded,
  } = store;
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
      url: `${store.url}/c/pay/${id}`,
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
}
