import type { Knex } from 'knex';
import { CHANGES_CHANNEL } from './002_change_notifications';

/**
 * A write to a plan's inputs bumps the plan's version, and until now that update told every API process to drop every
 * access decision it kept, so that under steady editing nearly every read went back to the database. Now an update
 * of `business_plans` that changes nothing but the version (and `updated_at`, and the icon's bytes, which no access
 * decision holds) sends `schema.plan_version:<plan id>:<version>` instead, and the processes move the version they
 * keep for that plan forward (`AccessCache.planVersion`). Any other update, and every insert, delete or truncate,
 * still sends `schema.business_plans`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION topline_notify_plan_update() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      before_row business_plans%ROWTYPE := OLD;
      after_row business_plans%ROWTYPE := NEW;
    BEGIN
      before_row.version := after_row.version;
      before_row.updated_at := after_row.updated_at;
      before_row.icon := NULL;
      after_row.icon := NULL;
      IF before_row IS NOT DISTINCT FROM after_row THEN
        PERFORM pg_notify('${CHANGES_CHANNEL}', TG_TABLE_SCHEMA || '.plan_version:' || NEW.id || ':' || NEW.version);
      ELSE
        PERFORM pg_notify('${CHANGES_CHANNEL}', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME);
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw('DROP TRIGGER business_plans_notify_change ON business_plans');
  await knex.raw(`CREATE TRIGGER business_plans_notify_change AFTER INSERT OR DELETE OR TRUNCATE ON business_plans
    FOR EACH STATEMENT EXECUTE FUNCTION topline_notify_change()`);
  await knex.raw(`CREATE TRIGGER business_plans_notify_update AFTER UPDATE ON business_plans
    FOR EACH ROW EXECUTE FUNCTION topline_notify_plan_update()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER business_plans_notify_update ON business_plans');
  await knex.raw('DROP TRIGGER business_plans_notify_change ON business_plans');
  await knex.raw(`CREATE TRIGGER business_plans_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
    ON business_plans FOR EACH STATEMENT EXECUTE FUNCTION topline_notify_change()`);
  await knex.raw('DROP FUNCTION topline_notify_plan_update()');
}
