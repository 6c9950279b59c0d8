import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type {
  Card,
  Customer,
  Invoice,
  PaymentMethod,
  Session,
  SetupIntent,
  StripeEvent,
  Subscription,
  SubscriptionItem,
} from './objects';
import { amountIn, type PriceDef, priceObject } from './prices';
import { missing, StripeFailure } from './protocol';

/**
 * The objects Stripe holds for the account (prices, customers, subscriptions, invoices, Checkout sessions, setup
 * intents, cards), the lookups the REST routes share, and what happens to them off the API: what a person does on
 * Stripe's hosted pages and what Stripe does on its own, each answering the events Stripe would send.
 */

export const DAY = 86_400;
export const nowSeconds = () => Math.floor(Date.now() / 1000);
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export type StripeStore = ReturnType<typeof createStripeStore>;

export function createStripeStore(prices: PriceDef[]) {
  const pricesById = new Map(prices.map((p) => [p.id, p]));
  const customers = new Map<string, Customer>();
  const subscriptions = new Map<string, Subscription>();
  const sessions = new Map<string, Session>();
  const setupIntents = new Map<string, SetupIntent>();
  const paymentMethods = new Map<string, PaymentMethod>();
  const invoices: Invoice[] = [];
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

  const store = {
    /** The server's base URL, set once it listens: the hosted pages' links start with it. */
    get url(): string {
      return url;
    },
    set url(value: string) {
      url = value;
    },
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
    event,
    /** The person pays on the Checkout page: a subscription (mode subscription) or a saved card (mode setup). */
    completeCheckout(sessionId: string, card: Card = { last4: '4242', exp_month: 12, exp_year: 2030 }): StripeEvent[] {
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
    failPayment(subscriptionId: string): StripeEvent[] {
      const subscription = subscriptionOf(subscriptionId);
      subscription.status = 'past_due';
      const invoice = invoiceFor(subscription, 'open');
      return [event('invoice.payment_failed', invoice), event('customer.subscription.updated', subscription)];
    },
    payInvoice(subscriptionId: string): StripeEvent[] {
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
    endSubscription(subscriptionId: string): StripeEvent[] {
      const subscription = subscriptionOf(subscriptionId);
      subscription.status = 'canceled';
      return [event('customer.subscription.deleted', subscription)];
    },
    changePrice(subscriptionId: string, priceId: string): StripeEvent[] {
      const subscription = subscriptionOf(subscriptionId);
      const item = subscription.items.data[0];
      const price = pricesById.get(priceId) ?? { id: priceId, unit_amount: 1, currency: 'jpy', interval: 'month' };
      subscription.items.data[0] = {
        ...itemFor(price, item?.current_period_start ?? nowSeconds()),
        id: item?.id ?? newId('si'),
      };
      return [event('customer.subscription.updated', subscription)];
    },
  };
  return store;
}
