import type { Knex } from 'knex';

/**
 * A plan's snapshots: its inputs saved under a name (contract `snapshots.ts`). `plan_file` is the engine's plan file
 * as the inputs stood (inputs only: every number of a snapshot is the engine's, computed when asked). `change_id` is
 * the plan's last recorded change when it was saved, the moment of the history a restore puts back; null when the
 * plan had no recorded change then. Not a table of the history: saving, renaming or deleting a snapshot changes no
 * input. They go with the plan; `created_by` becomes null when the user goes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_snapshots', (t) => {
    t.increments('id').primary();
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.string('name', 80).notNullable();
    t.jsonb('plan_file').notNullable();
    t.bigInteger('change_id');
    t.integer('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['plan_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('plan_snapshots');
}
