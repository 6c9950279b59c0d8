import type { Knex } from 'knex';

const AREAS = ['pl', 'monthly_pl', 'kpi', 'sales_detail', 'cogs', 'sm', 'rd', 'ga', 'dashboard', 'actuals'];

/** Inputs only (DESIGN.md, Data): every figure on a screen is computed by the engine from these rows. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('email', 254).notNullable().unique();
    t.string('password_hash');
    t.string('google_sub').unique();
    t.string('auth_provider', 10).notNullable();
    t.string('name', 50).notNullable().defaultTo('');
    t.text('picture');
    t.string('company_name', 50).notNullable().defaultTo('');
    t.string('position', 50).notNullable().defaultTo('');
    t.string('employees', 20).notNullable().defaultTo('');
    t.string('stage', 50).notNullable().defaultTo('');
    t.integer('token_version').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('signup_allowlist', (t) => {
    t.string('email', 254).primary();
    t.timestamp('added_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('password_resets', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('subscriptions', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.string('tier', 10).notNullable().defaultTo('free');
    t.string('trial_end', 10);
    t.string('stripe_customer_id');
    t.string('stripe_subscription_id');
    t.string('status', 30).notNullable().defaultTo('active');
    t.timestamp('current_period_end', { useTz: true });
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('invoices', (t) => {
    t.increments('id').primary();
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('stripe_invoice_id').unique();
    t.text('url').notNullable();
    t.bigInteger('price').notNullable();
    t.string('currency', 3).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('business_plans', (t) => {
    t.increments('id').primary();
    t.integer('owner_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('name', 50).notNullable();
    t.binary('icon');
    t.string('icon_type', 20);
    t.string('template', 10).notNullable();
    t.string('currency', 3).notNullable();
    t.double('arr').notNullable();
    t.integer('period').notNullable();
    t.double('arpa').notNullable();
    t.integer('start_year').notNullable();
    t.integer('start_month').notNullable();
    t.string('theme_color', 10).notNullable().defaultTo('purple');
    t.integer('version').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('plan_members', (t) => {
    t.increments('id').primary();
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.string('email', 254).notNullable();
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    t.string('status', 10).notNullable().defaultTo('yet');
    for (const area of AREAS) t.string(area, 10).notNullable().defaultTo('no_access');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['plan_id', 'email']);
  });

  await knex.schema.createTable('cases', (t) => {
    t.increments('id').primary();
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('name', 50).notNullable();
    t.double('rate').notNullable();
    t.string('model_name', 20).notNullable();
    t.jsonb('model_rates').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('case_year_inputs', (t) => {
    t.integer('case_id').notNullable().references('cases.id').onDelete('CASCADE');
    t.integer('year').notNullable();
    t.string('key', 40).notNullable();
    t.double('value').notNullable();
    t.primary(['case_id', 'year', 'key']);
  });

  await knex.schema.createTable('monthly_inputs', (t) => {
    t.integer('case_id').notNullable().references('cases.id').onDelete('CASCADE');
    t.integer('month').notNullable();
    t.string('layer', 10).notNullable();
    t.string('key', 40).notNullable();
    t.double('value').notNullable();
    t.primary(['case_id', 'month', 'layer', 'key']);
  });

  await knex.schema.createTable('monthly_status', (t) => {
    t.integer('case_id').notNullable().references('cases.id').onDelete('CASCADE');
    t.integer('month').notNullable();
    t.string('status', 3).notNullable();
    t.primary(['case_id', 'month']);
  });

  await knex.schema.createTable('daily_entries', (t) => {
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.string('date', 10).notNullable();
    t.string('key', 20).notNullable();
    t.double('value').notNullable();
    t.primary(['plan_id', 'date', 'key']);
  });

  await knex.schema.createTable('comments', (t) => {
    t.integer('case_id').notNullable().references('cases.id').onDelete('CASCADE');
    t.integer('year').notNullable();
    t.string('column_name', 10).notNullable();
    t.string('section', 12).notNullable();
    t.text('content').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['case_id', 'year', 'column_name', 'section']);
  });

  await knex.schema.createTable('revisions', (t) => {
    t.integer('case_id').notNullable().references('cases.id').onDelete('CASCADE');
    t.integer('year').notNullable();
    t.string('pattern', 10).notNullable();
    t.integer('month').notNullable();
    t.primary(['case_id', 'year']);
  });

  await knex.schema.createTable('cost_items', (t) => {
    t.increments('id').primary();
    t.integer('case_id').notNullable().references('cases.id').onDelete('CASCADE');
    t.string('item_title', 30).notNullable();
    t.string('item_name', 100).notNullable().defaultTo('');
    t.double('price').notNullable();
    t.integer('start_year').notNullable();
    t.integer('start_month').notNullable();
    t.integer('end_year').notNullable();
    t.integer('end_month').notNullable();
  });

  await knex.schema.createTable('plan_colors', (t) => {
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.integer('set_index').notNullable();
    t.string('arr', 7).notNullable();
    t.string('pl', 7).notNullable();
    t.string('gross_profit', 7).notNullable();
    t.primary(['plan_id', 'set_index']);
  });

  await knex.schema.createTable('google_accounts', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.string('google_email', 254).notNullable();
    t.string('name').notNullable().defaultTo('');
    t.text('picture');
    t.text('tokens_encrypted').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('spreadsheets', (t) => {
    t.integer('plan_id').primary().references('business_plans.id').onDelete('CASCADE');
    t.string('spreadsheet_id').notNullable();
    t.string('name').notNullable();
    t.text('url').notNullable();
    t.timestamp('modified_at', { useTz: true });
  });

  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id').primary();
    t.integer('user_id');
    t.integer('plan_id');
    t.string('action', 60).notNullable();
    t.jsonb('detail');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['plan_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'audit_log',
    'spreadsheets',
    'google_accounts',
    'plan_colors',
    'cost_items',
    'revisions',
    'comments',
    'daily_entries',
    'monthly_status',
    'monthly_inputs',
    'case_year_inputs',
    'cases',
    'plan_members',
    'business_plans',
    'invoices',
    'subscriptions',
    'password_resets',
    'signup_allowlist',
    'users',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
