import type { Knex } from 'knex';

/** The tables whose rows decide who may read a plan, and at which version (see `api/src/services/access/accessCache.ts`). */
export const NOTIFYING_TABLES = ['users', 'subscriptions', 'business_plans', 'plan_members'] as const;
export const CHANGES_CHANNEL = 'topline_changes';

/**
 * Every committed change to those tables sends a notification on `topline_changes`, whichever process or tool made
 * it, so that each API process can drop the access decisions it keeps in memory. The payload is the table's name.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION topline_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${CHANGES_CHANNEL}', TG_TABLE_NAME);
      RETURN NULL;
    END
    $$`);
  for (const table of NOTIFYING_TABLES) {
    await knex.raw(
      `CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ?? FOR EACH STATEMENT EXECUTE FUNCTION topline_notify_change()`,
      [`${table}_notify_change`, table],
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of NOTIFYING_TABLES) {
    await knex.raw('DROP TRIGGER IF EXISTS ?? ON ??', [`${table}_notify_change`, table]);
  }
  await knex.raw('DROP FUNCTION IF EXISTS topline_notify_change()');
}
