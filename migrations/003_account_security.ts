import type { Knex } from 'knex';

/**
 * Account safety that must hold whichever API process (or tool) writes:
 * - a password change voids every reset link of that user still outstanding, so an older link cannot set the
 *   password again after a reset, nor after any other change of the password.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION topline_void_reset_links() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE password_resets SET used_at = now() WHERE user_id = NEW.id AND used_at IS NULL;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER users_password_voids_reset_links
    AFTER UPDATE OF password_hash ON users
    FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash)
    EXECUTE FUNCTION topline_void_reset_links()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS users_password_voids_reset_links ON users');
  await knex.raw('DROP FUNCTION IF EXISTS topline_void_reset_links()');
}
