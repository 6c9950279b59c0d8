/**
 * A snapshot downloaded as XLSX (`/snapshot/xlsx`): apart from the snapshots' own service, which the reads against a
 * snapshot use, so that the XLSX export and those reads do not depend on each other.
 */
import { asOfMonth } from '@topline/contract';
import type { Db } from '../../db';
import type { PlanAccess } from '../access/access';
import { snapshotPlanFile } from '../history/snapshots';
import { planXlsxOffThread } from './xlsxExport';

/**
 * The snapshot as the engine's XLSX: its plan file built into a workbook as of today's month, as the live plan's
 * is, and exported by the same function as `/business-plan/xlsx`, both off the API's thread.
 */
export async function snapshotXlsx(db: Db, access: PlanAccess, id: number, today: Date) {
  const file = await snapshotPlanFile(db, access, id);
  const bytes = await planXlsxOffThread(file, asOfMonth(today), access.plan.id);
  return { bytes, caseNames: file.cases.map((c) => c.case_name) };
}
