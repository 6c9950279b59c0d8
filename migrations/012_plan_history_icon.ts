import type { Knex } from 'knex';
import { recordChangeFunction } from './010_plan_history';

/**
 * The history trigger turned a plan's whole row into JSON, icon bytes included, before leaving the icon out: every
 * write to a plan's inputs bumps its version, so each write converted the icon (up to 2 MB) twice under the plan's
 * lock. The trigger now clears the icon first (`recordChangeFunction`); what it records is the same.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(recordChangeFunction({ iconLeftOutFirst: true }));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(recordChangeFunction({ iconLeftOutFirst: false }));
}
