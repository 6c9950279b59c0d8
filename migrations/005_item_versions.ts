import type { Knex } from 'knex';

/**
 * A version per cost item: an edit names the version it was made on, and an edit of an older version is refused
 * (409) instead of silently overwriting what someone else saved in between.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cost_items', (t) => {
    t.integer('version').notNullable().defaultTo(1);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('cost_items', (t) => {
    t.dropColumn('version');
  });
}
