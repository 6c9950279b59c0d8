import type { Knex } from 'knex';

/**
 * The Google Sheets link of a plan (working-screens.md sections 2 and 7): the Google account its owner connected, the
 * grant's refresh token and latest access token, both encrypted (AES-256-GCM under a key derived from APP_SECRET,
 * `api/src/services/spreadsheets/sheetsStore.ts`), whether Google has refused the grant since (the owner must reconnect), and the
 * spreadsheet made for the plan, if any. One link per plan; it goes with the plan or the user.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('spreadsheet_links', (t) => {
    t.integer('business_plan_id').primary().references('business_plans.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('google_email', 254).notNullable();
    t.string('google_name', 255).notNullable().defaultTo('');
    t.text('google_picture');
    t.text('refresh_token').notNullable();
    t.text('access_token');
    t.timestamp('access_expires_at', { useTz: true });
    t.boolean('needs_reconnect').notNullable().defaultTo(false);
    t.string('spreadsheet_id', 255);
    t.text('spreadsheet_name');
    t.text('spreadsheet_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('spreadsheet_links');
}
