import type { Knex } from 'knex';

/**
 * A plan's to-dos on Home, shared by its members (working-screens.md section 2): the text, whether it is done, and a
 * version that every edit names, so that an edit made on an older version is refused (409) instead of silently
 * undoing what another member saved in between. They go with the plan; a member who leaves keeps their to-dos in the
 * plan (`created_by` becomes null when the user goes).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_todos', (t) => {
    t.increments('id').primary();
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.string('text', 200).notNullable();
    t.boolean('done').notNullable().defaultTo(false);
    t.integer('version').notNullable().defaultTo(1);
    t.integer('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['plan_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('plan_todos');
}
