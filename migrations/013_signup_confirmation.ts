import type { Knex } from 'knex';

/**
 * Sign-up proves the mailbox (api/src/services/accounts/signups.ts, invitations.ts):
 * - `signup_confirmations`: a sign-up waits here, with its password's hash, until the link mailed to the address is
 *   opened; only the SHA-256 of the link's token is stored, and the link is used once and expires;
 * - `plan_invitations`: the secret of each invitation link, hashed, with its expiry; a resend voids the earlier link
 *   (used_at) and adds a new one. Kept apart from plan_members so that a plan's history (which records plan_members
 *   rows) never holds a link and never restores one;
 * - `users.email_verified_at`: when the account proved it holds its address (a confirmed sign-up, Google's ID token,
 *   a reset link, an invitation link). Only such an account accepts invitations. Accounts made before this proved
 *   nothing, except Google's.
 * Invitations still waiting get a link whose token nobody holds, expiring 14 days after they were made: the owner
 * resends to give them a working link.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signup_confirmations', (t) => {
    t.increments('id').primary();
    t.string('email', 254).notNullable().index();
    t.string('password_hash', 255).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.createTable('plan_invitations', (t) => {
    t.increments('id').primary();
    t.integer('member_id').notNullable().references('plan_members.id').onDelete('CASCADE').index();
    t.string('token_hash', 64).notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('email_verified_at', { useTz: true });
  });
  await knex.raw(`UPDATE users SET email_verified_at = now() WHERE auth_provider = 'google'`);
  await knex.raw(`
    INSERT INTO plan_invitations (member_id, token_hash, expires_at)
    SELECT id, encode(sha256(convert_to(gen_random_uuid()::text || id::text, 'UTF8')), 'hex'),
           created_at + interval '14 days'
    FROM plan_members WHERE status = 'yet'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_verified_at');
  });
  await knex.schema.dropTableIfExists('plan_invitations');
  await knex.schema.dropTableIfExists('signup_confirmations');
}
