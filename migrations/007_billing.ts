import type { Knex } from 'knex';

/**
 * Billing through Stripe. Each Stripe event is applied once: its id is kept (`stripe_events`). The subscription row
 * keeps what Stripe last said (status, cancellation at the period's end, the price paid) and the last time the tier
 * went down and why, for the notice of what that changed. A Stripe customer or subscription belongs to one user.
 * An owner's plans by age: after a downgrade the oldest keep working (every plan access counts the older ones).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('stripe_events', (t) => {
    t.string('id', 255).primary();
    t.string('type', 100).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.string('price_id', 255);
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    t.string('down_from', 10);
    t.string('down_reason', 30);
    t.timestamp('down_at', { useTz: true });
    t.unique(['stripe_customer_id']);
    t.unique(['stripe_subscription_id']);
  });
  await knex.schema.alterTable('business_plans', (t) => {
    t.index(['owner_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('business_plans', (t) => {
    t.dropIndex(['owner_id', 'id']);
  });
  await knex.schema.alterTable('subscriptions', (t) => {
    t.dropUnique(['stripe_subscription_id']);
    t.dropUnique(['stripe_customer_id']);
    t.dropColumn('down_at');
    t.dropColumn('down_reason');
    t.dropColumn('down_from');
    t.dropColumn('cancel_at_period_end');
    t.dropColumn('price_id');
  });
  await knex.schema.dropTable('stripe_events');
}
