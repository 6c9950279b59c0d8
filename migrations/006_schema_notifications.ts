import type { Knex } from 'knex';

/**
 * Change notifications name the schema as well as the table (`schema.table`), so that an API process listening on a
 * database that holds several schemas (each test file, or several deployments) drops only what its own schema's
 * changes touch.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION topline_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('topline_changes', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
      RETURN NULL;
    END
    $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION topline_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('topline_changes', TG_TABLE_NAME);
      RETURN NULL;
    END
    $$`);
}
