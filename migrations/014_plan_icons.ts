import type { Knex } from 'knex';

/**
 * A plan's icons move out of its row into `plan_icons`, one row per icon the plan has had, named by a hash of its
 * bytes; the plan names its current one (`icon_hash`). The plan's row stays small (every `/user/me` and plan-scoped
 * read loads it), the icon is served from its own cached URL, and the history records an icon change as a change of
 * `icon_hash`, so a restore puts back an icon the plan still holds.
 *
 * Icons stored before were kept as uploaded (up to 2 MB, any dimensions). They move as they are, marked `encoded =
 * false`: the API decodes and re-encodes one at the size it is shown when it is first fetched
 * (`api/src/services/plans/icons.ts`), so that no image is decoded here and a start never waits on, or fails for, one.
 * Their hash is that of the bytes as uploaded; it only names them. The plan's `icon` column is left empty rather
 * than dropped: the triggers of migrations 011 and 012 name it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_icons', (t) => {
    t.integer('plan_id').notNullable().references('business_plans.id').onDelete('CASCADE');
    t.string('hash', 64).notNullable();
    t.string('type', 40).notNullable();
    t.binary('bytes').notNullable();
    t.boolean('encoded').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['plan_id', 'hash']);
  });
  await knex.schema.alterTable('business_plans', (t) => {
    t.string('icon_hash', 64);
  });
  // Moving the icons is no change of the plans' inputs: the history does not record it.
  await knex.raw('ALTER TABLE business_plans DISABLE TRIGGER business_plans_history');
  await knex.raw(`
    INSERT INTO plan_icons (plan_id, hash, type, bytes, encoded)
    SELECT id, encode(sha256(icon), 'hex'), COALESCE(icon_type, 'image/png'), icon, false
    FROM business_plans WHERE icon IS NOT NULL`);
  await knex.raw(
    `UPDATE business_plans SET icon_hash = encode(sha256(icon), 'hex'), icon = NULL WHERE icon IS NOT NULL`,
  );
  await knex.raw('ALTER TABLE business_plans ENABLE TRIGGER business_plans_history');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE business_plans DISABLE TRIGGER business_plans_history');
  await knex.raw(`
    UPDATE business_plans SET icon = i.bytes, icon_type = i.type
    FROM plan_icons i WHERE i.plan_id = business_plans.id AND i.hash = business_plans.icon_hash`);
  await knex.raw('ALTER TABLE business_plans ENABLE TRIGGER business_plans_history');
  await knex.schema.alterTable('business_plans', (t) => {
    t.dropColumn('icon_hash');
  });
  await knex.schema.dropTable('plan_icons');
}
