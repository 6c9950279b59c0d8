import type { Knex } from 'knex';

/**
 * The sign-in, lookup and reset-mail counts of `api/src/services/accounts/throttle.ts`, shared by every API process on the
 * database: one row per scope and key, counting from the start of the key's window. The key (an e-mail or a client
 * address) is stored only as its SHA-256.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('throttle_counts', (t) => {
    t.string('scope', 32).notNullable();
    t.string('key_hash', 64).notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable();
    t.primary(['scope', 'key_hash']);
    t.index(['window_start']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('throttle_counts');
}
