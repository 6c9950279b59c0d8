import Stripe from 'stripe';
import type { StripeEvent } from './objects';

/** Signs a payload's Stripe-Signature header as Stripe signs webhook events, with the endpoint's secret. */
export type Sign = (payload: string, secret?: string) => string;

export function webhookSigner(secretKey: string, webhookSecret: string): Sign {
  const signer = new Stripe(secretKey);
  return (payload, secret = webhookSecret) => signer.webhooks.generateTestHeaderString({ payload, secret });
}

/** Sends events one after another to the webhook endpoint, signed; an answer other than 2xx is an error. */
export async function deliver(webhookUrl: string | null, events: StripeEvent[], sign: Sign): Promise<void> {
  for (const sent of events) {
    const payload = JSON.stringify(sent);
    const answer = await fetch(webhookUrl ?? '', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': sign(payload) },
      body: payload,
    });
    if (!answer.ok) throw new Error(`the webhook endpoint answered ${answer.status} to ${sent.type}`);
  }
}
