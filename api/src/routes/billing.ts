import type Router from '@koa/router';
import { BILLING_NOT_CONFIGURED, routes, unavailable } from '@topline/contract';
import type { Middleware } from 'koa';
import type { Services } from '../deps';
import type { AppContext, AppState } from '../http/context';
import { handle } from '../http/route';
import { Billing } from '../services/billing/billing';
import { Prices, stripeClient } from '../services/billing/stripe';

/** The webhook's full path: its body is read raw, before the JSON body parser. */
const WEBHOOK_PATH = `/api/v1${routes.billingWebhook.path}`;
/** Stripe's events are a few kilobytes; more is not an event of Stripe's. */
const MAX_EVENT_BYTES = 1_000_000;
const rawBodies = new WeakMap<object, Buffer>();

/**
 * Keeps the webhook's body as the bytes Stripe signed: the signature covers them exactly, so they must not be parsed
 * and serialised again. Registered before the JSON body parser, which then leaves the request alone.
 */
export const webhookRawBody: Middleware = async (ctx, next) => {
  if (ctx.method !== 'POST' || ctx.path !== WEBHOOK_PATH) return next();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += bytes.length;
    if (size > MAX_EVENT_BYTES) ctx.throw(413, 'the event is too large');
    chunks.push(bytes);
  }
  rawBodies.set(ctx.request, Buffer.concat(chunks));
  (ctx as { disableBodyParser?: boolean }).disableBodyParser = true;
  return next();
};

/**
 * Billing (product-and-account.md sections 4 and 7) through Stripe's hosted Checkout. Without STRIPE_SECRET_KEY
 * every billing call answers 503 and tiers are set with the admin CLI.
 */
export function billingRoutes(router: Router<AppState>, services: Services): void {
  const stripe = stripeClient(services.config);
  const billing = stripe
    ? new Billing(services.db, stripe, {
        prices: new Prices(services.config),
        webhookSecret: services.config.STRIPE_WEBHOOK_SECRET,
        publicUrl: services.config.PUBLIC_URL,
        now: services.now,
        logger: services.logger,
      })
    : null;
  const configured = (): Billing => {
    if (!billing) throw unavailable(BILLING_NOT_CONFIGURED);
    return billing;
  };

  handle(router, services, 'billingRetrieve', async ({ user }) => ({ data: await configured().retrieve(user) }));
  handle(router, services, 'billingCreate', async ({ user, input }) => ({
    data: await configured().create(user, input),
  }));
  handle(router, services, 'billingPaymentAttach', async ({ user }) => ({
    data: await configured().attachPayment(user),
  }));
  handle(router, services, 'billingCancel', async ({ user }) => ({ data: await configured().cancel(user) }));
  handle(router, services, 'billingRestore', async ({ user }) => ({ data: await configured().restore(user) }));
  handle(router, services, 'billingWebhook', async ({ ctx }) => {
    await configured().webhook(rawBodies.get(ctx.request) ?? Buffer.alloc(0), signatureOf(ctx));
    return { received: true as const };
  });
}

const signatureOf = (ctx: AppContext): string | undefined => ctx.get('stripe-signature') || undefined;
