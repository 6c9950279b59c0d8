/** The shapes of the objects the stand-in keeps, as Stripe answers them. */
import type { PriceObject } from './prices';

export interface Card {
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface Customer {
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  invoice_settings: { default_payment_method: string | null };
  created: number;
}

export interface Subscription {
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

export interface SubscriptionItem {
  id: string;
  object: 'subscription_item';
  price: PriceObject;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
}

export interface Session {
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

export interface SetupIntent {
  id: string;
  object: 'setup_intent';
  customer: string;
  payment_method: string;
  status: string;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string;
  card: Card & { brand: string };
}

export interface Invoice {
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
}
