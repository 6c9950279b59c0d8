import type { Card } from './objects';
import { amountIn, shownAmount } from './prices';
import { type Params, text } from './protocol';
import type { StripeStore } from './store';

export interface HostedPage {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Stripe's hosted pages, for a browser (no API key): Checkout and invoices. Undefined for an API path, or while no
 * webhook endpoint is set. Paying on the Checkout page calls `pay` (which completes the session and delivers its
 * events) and then redirects to the session's `success_url`.
 */
export function hostedPage(
  store: StripeStore,
  webhookUrl: string | null,
  pay: (sessionId: string, card: Card) => Promise<void>,
  method: string,
  path: string,
  form: Params,
): Promise<HostedPage> | undefined {
  const { invoices, sessions, pricesById } = store;
  const checkout = path.match(/^\/c\/pay\/([^/]+)$/)?.[1];
  const invoiceId = path.match(/^\/invoices\/([^/.]+)(\.pdf)?$/)?.[1];
  if (!webhookUrl || (!checkout && !invoiceId)) return undefined;
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
      await pay(session.id, card);
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
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
