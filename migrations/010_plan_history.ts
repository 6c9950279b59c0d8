import type { Knex } from 'knex';

/**
 * The tables that hold a plan's inputs, each with the columns its history leaves out: bookkeeping (versions,
 * timestamps) and the icon's bytes. Every row written to them is recorded (`api/src/services/history/history.ts`).
 */
export const HISTORY_TABLES: Readonly<Record<string, readonly string[]>> = {
  business_plans: ['version', 'updated_at', 'created_at', 'icon'],
  cases: ['created_at'],
  case_year_inputs: ['created_at'],
  monthly_inputs: ['created_at'],
  monthly_status: ['created_at'],
  daily_entries: ['created_at'],
  comments: ['updated_at'],
  revisions: ['created_at'],
  cost_items: ['version'],
  plan_colors: ['created_at'],
  plan_members: ['created_at'],
};

/**
 * A plan's history. `plan_changes` holds one row per change (who, which call, when); `plan_change_rows` every row of
 * an input table that the change inserted, updated or deleted, as JSON before and after. Rows are recorded by a
 * trigger in the transaction that writes them, so no write path can leave one out:
 *
 * - the API names the change's plan, user and call with transaction-local settings (`topline.plan`, `topline.user`,
 *   `topline.action`, `topline.restored_from`; `topline.plan` = `new` while a plan is being created); the first row
 *   written creates the change and later rows of the same plan join it (`topline.change`);
 * - a row of another plan than the one named, or written with no settings at all (an administrator's SQL, an account
 *   deleted), joins a change of its own plan in the same transaction, created on its first row with whatever user
 *   and call are set (else none: `unattributed`);
 * - an update that changes only left-out columns is not recorded, and neither is anything of a plan being deleted:
 *   its history goes with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_changes', (t) => {
    t.bigIncrements('id').primary();
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.integer('user_id').references('users.id').onDelete('SET NULL');
    t.string('action', 60).notNullable();
    t.bigInteger('restored_from');
    t.bigInteger('txid').notNullable().defaultTo(knex.raw('txid_current()'));
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['plan_id', 'id']);
  });
  await knex.schema.createTable('plan_change_rows', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('change_id').notNullable().references('plan_changes.id').onDelete('CASCADE');
    t.string('table_name', 40).notNullable();
    t.jsonb('old_row');
    t.jsonb('new_row');
    t.index(['change_id', 'id']);
  });
  await knex.raw(recordChangeFunction({ iconLeftOutFirst: false }));
  for (const [table, leftOut] of Object.entries(HISTORY_TABLES)) {
    const args = leftOut.map((column) => `'${column}'`).join(', ');
    await knex.raw(
      `CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE ON ?? FOR EACH ROW EXECUTE FUNCTION topline_record_change(${args})`,
      [`${table}_history`, table],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of Object.keys(HISTORY_TABLES)) {
    await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${table}_history`, table]);
  }
  await knex.raw('DROP FUNCTION IF EXISTS topline_record_change()');
  await knex.schema.dropTableIfExists('plan_change_rows');
  await knex.schema.dropTableIfExists('plan_changes');
}

/**
 * The trigger function that records a row written to an input table (`up` below). `iconLeftOutFirst` (migration
 * 012): a plan's row becomes JSON with its icon's bytes already left out, so that the update of its version that every
 * write makes does not convert the icon (up to 2 MB) twice; the JSON recorded is the same.
 */
export function recordChangeFunction(options: { iconLeftOutFirst: boolean }): string {
  const planRows = options.iconLeftOutFirst
    ? `      v_plan_old business_plans%ROWTYPE;
      v_plan_new business_plans%ROWTYPE;
`
    : '';
  const generic = `      IF TG_OP <> 'INSERT' THEN v_old := to_jsonb(OLD) - TG_ARGV; END IF;
      IF TG_OP <> 'DELETE' THEN v_new := to_jsonb(NEW) - TG_ARGV; END IF;
`;
  const rowsAsJson = options.iconLeftOutFirst
    ? `      IF TG_TABLE_NAME = 'business_plans' THEN
        v_plan_new := NEW;
        v_plan_new.icon := NULL;
        v_new := to_jsonb(v_plan_new) - TG_ARGV;
        IF TG_OP = 'UPDATE' THEN
          v_plan_old := OLD;
          v_plan_old.icon := NULL;
          v_old := to_jsonb(v_plan_old) - TG_ARGV;
        END IF;
      ELSE
${generic}      END IF;
`
    : generic;
  return `
    CREATE OR REPLACE FUNCTION topline_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      v_old jsonb;
      v_new jsonb;
      v_row jsonb;
      v_plan bigint;
      v_change bigint;
      v_named text := nullif(current_setting('topline.plan', true), '');
${planRows}    BEGIN
      IF TG_TABLE_NAME = 'business_plans' AND TG_OP = 'DELETE' THEN RETURN NULL; END IF;
${rowsAsJson}      IF TG_OP = 'UPDATE' AND v_old = v_new THEN RETURN NULL; END IF;
      v_row := coalesce(v_new, v_old);
      IF TG_TABLE_NAME = 'business_plans' THEN
        v_plan := (v_row->>'id')::bigint;
        IF v_named = 'new' AND TG_OP = 'INSERT' THEN
          PERFORM set_config('topline.plan', v_plan::text, true);
          v_named := v_plan::text;
        END IF;
      ELSIF v_row \\? 'plan_id' THEN
        v_plan := (v_row->>'plan_id')::bigint;
      ELSE
        SELECT plan_id INTO v_plan FROM cases WHERE id = (v_row->>'case_id')::int;
        -- The rows of a case deleted by this change: its plan is the change's.
        IF v_plan IS NULL AND v_named IS DISTINCT FROM 'new' THEN v_plan := v_named::bigint; END IF;
      END IF;
      IF v_plan IS NULL THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM business_plans WHERE id = v_plan) THEN RETURN NULL; END IF;
      IF v_named = v_plan::text THEN
        v_change := nullif(current_setting('topline.change', true), '')::bigint;
        IF v_change IS NULL THEN
          INSERT INTO plan_changes (plan_id, user_id, action, restored_from)
          VALUES (
            v_plan,
            nullif(current_setting('topline.user', true), '')::int,
            coalesce(nullif(current_setting('topline.action', true), ''), 'unattributed'),
            nullif(current_setting('topline.restored_from', true), '')::bigint
          )
          RETURNING id INTO v_change;
          PERFORM set_config('topline.change', v_change::text, true);
        END IF;
      ELSE
        SELECT id INTO v_change FROM plan_changes
          WHERE plan_id = v_plan AND txid = txid_current() ORDER BY id DESC LIMIT 1;
        IF v_change IS NULL THEN
          INSERT INTO plan_changes (plan_id, user_id, action)
          VALUES (
            v_plan,
            nullif(current_setting('topline.user', true), '')::int,
            coalesce(nullif(current_setting('topline.action', true), ''), 'unattributed')
          )
          RETURNING id INTO v_change;
        END IF;
      END IF;
      INSERT INTO plan_change_rows (change_id, table_name, old_row, new_row)
      VALUES (v_change, TG_TABLE_NAME, v_old, v_new);
      RETURN NULL;
    END
    $$`;
}
