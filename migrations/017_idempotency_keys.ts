import type { Knex } from 'knex';

/**
 * The writes applied under an `Idempotency-Key` (contract `wire.ts`), kept for a day. A row is inserted by the write's
 * own transaction, so it exists exactly when the write committed; `answer` (the answer's JSON: status,
 * body and the headers a client reads) are added once the answer is known. A key is its user's: the primary key is
 * both. `route` and `request_hash` (SHA-256 of the route and the parsed request) refuse a key sent again with another
 * request. Rows go with their user.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.string('route', 100).notNullable();
    t.string('request_hash', 64).notNullable();
    t.text('answer');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'key']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
