import knexFactory from 'knex';
import { describe, expect, it } from 'vitest';
import { mayWrite, PLAN_VERSION_ONLY, writesAccess } from './accessWrites';

// Statements as knex compiles them for PostgreSQL (no connection needed to compile).
const sql = knexFactory({ client: 'pg' });
type Builder = ReturnType<typeof sql> | ReturnType<typeof sql.raw>;
const ran = (builder: Builder) => {
  const compiled = builder.toSQL();
  return writesAccess({ method: compiled.method, sql: compiled.sql }, builder);
};

describe('which statements change what access decisions are made of', () => {
  it('counts writes to users, subscriptions, plans and members', () => {
    expect(ran(sql('users').insert({ email: 'a@example.com' }))).toBe(true);
    expect(ran(sql('subscriptions').where({ user_id: 1 }).update({ tier: 'free' }))).toBe(true);
    expect(ran(sql('business_plans').where({ id: 1 }).update({ name: 'Renamed' }))).toBe(true);
    expect(ran(sql('business_plans').where({ id: 1 }).delete())).toBe(true);
    expect(ran(sql('plan_members').insert({ plan_id: 1, email: 'm@example.com' }).onConflict().ignore())).toBe(true);
    expect(ran(sql.withSchema('tenant_a').table('plan_members').where({ id: 3 }).delete())).toBe(true);
    expect(ran(sql.raw('UPDATE users SET token_version = token_version + 1 WHERE id = ?', [1]))).toBe(true);
  });

  it('leaves out reads, transaction control, the version bump and writes to other tables', () => {
    expect(ran(sql('users').where({ id: 1 }).first())).toBe(false);
    expect(ran(sql.raw("SELECT set_config('topline.plan', ?, true)", ['1']))).toBe(false);
    for (const control of ['BEGIN;', 'COMMIT;', 'ROLLBACK', 'SAVEPOINT trx2', 'RELEASE SAVEPOINT trx2']) {
      expect(writesAccess({ method: 'raw', sql: control })).toBe(false);
    }
    const bump = sql('business_plans')
      .where({ id: 1 })
      .update({ version: sql.raw('version + 1') })
      .queryContext(PLAN_VERSION_ONLY);
    expect(ran(bump)).toBe(false);
    // The same statement without the mark could change anything of the plan.
    expect(
      ran(
        sql('business_plans')
          .where({ id: 1 })
          .update({ version: sql.raw('version + 1') }),
      ),
    ).toBe(true);
    expect(ran(sql('monthly_inputs').insert({ case_id: 1, key: 'order', value: 5 }))).toBe(false);
    expect(ran(sql('cost_items').where({ id: 2 }).delete())).toBe(false);
  });

  it('counts a statement of any other shape, to be safe', () => {
    expect(ran(sql.raw('WITH moved AS (DELETE FROM plan_members RETURNING *) SELECT count(*) FROM moved'))).toBe(true);
    expect(writesAccess({ method: 'raw', sql: 'CALL refresh_everything()' })).toBe(true);
    expect(writesAccess({ method: 'raw', sql: 'TRUNCATE users CASCADE' })).toBe(true);
    expect(writesAccess({ method: 'raw', sql: 'DO $$ BEGIN END $$' })).toBe(true);
  });
});

describe('which statements may write a given table', () => {
  const writes = (builder: Builder, table: string) => {
    const compiled = builder.toSQL();
    return mayWrite({ method: compiled.method, sql: compiled.sql }, table);
  };

  it('counts plain writes to that table and statements of any other shape', () => {
    expect(writes(sql('cases').insert({ plan_id: 1, case_name: 'Upside' }), 'cases')).toBe(true);
    expect(writes(sql('cases').where({ id: 4 }).delete(), 'cases')).toBe(true);
    expect(writes(sql.withSchema('tenant_a').table('cases').where({ id: 4 }).update({ position: 2 }), 'cases')).toBe(
      true,
    );
    expect(writes(sql.raw('WITH gone AS (DELETE FROM cases WHERE id = ? RETURNING id) SELECT 1', [4]), 'cases')).toBe(
      true,
    );
    expect(mayWrite({ method: 'raw', sql: 'CALL tidy_cases()' }, 'cases')).toBe(true);
  });

  it('leaves out reads, transaction control and plain writes to other tables', () => {
    expect(writes(sql('cases').where({ plan_id: 1 }).select('id'), 'cases')).toBe(false);
    expect(writes(sql.raw("SELECT set_config('topline.plan', ?, true)", ['1']), 'cases')).toBe(false);
    expect(mayWrite({ method: 'raw', sql: 'COMMIT;' }, 'cases')).toBe(false);
    expect(writes(sql('case_year_inputs').insert({ case_id: 1, year: 1, key: 'arr', value: 1 }), 'cases')).toBe(false);
    expect(writes(sql('monthly_inputs').where({ case_id: 1 }).delete(), 'cases')).toBe(false);
  });
});
