import type { Db } from '../db';

/** Imports a plan file (MODEL.md section 9) as a new plan owned by the user; answers its id. */
export async function importPlanFile(_db: Db, _ownerId: number, _planJson: unknown): Promise<number> {
  throw new Error('plan files are not supported yet');
}
