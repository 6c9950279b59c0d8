import type Router from '@koa/router';
import { csvFileName } from '@topline/engine';
import type { Services } from '../deps';
import type { AppState } from '../http/context';
import { sendDownload } from '../http/download';
import { handle } from '../http/route';
import {
  createSnapshot,
  deleteSnapshot,
  listSnapshots,
  renameSnapshot,
  restoreSnapshot,
} from '../services/history/snapshots';
import { snapshotXlsx } from '../services/spreadsheets/snapshotXlsx';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A plan's snapshots (contract `snapshots.ts`). */
export function snapshotRoutes(router: Router<AppState>, services: Services): void {
  const { db } = services;
  handle(router, services, 'snapshotList', async ({ access }) => ({ data: await listSnapshots(db, access) }));
  handle(router, services, 'snapshotCreate', async ({ access, user, input }) => ({
    data: { snapshot: await createSnapshot(db, access, user.id, input.name) },
  }));
  handle(router, services, 'snapshotRename', async ({ access, input }) => ({
    data: { snapshot: await renameSnapshot(db, access, input.snapshot_id, input.name) },
  }));
  handle(router, services, 'snapshotDelete', async ({ access, input }) => {
    await deleteSnapshot(db, access, input.snapshot_id);
    return { title: 'Success', message: 'deleted' };
  });
  handle(router, services, 'snapshotRestore', async ({ access, input }) => ({
    data: await restoreSnapshot(db, access, input.snapshot_id),
  }));
  handle(router, services, 'snapshotXlsx', async ({ ctx, access, input }) => {
    const today = services.now();
    const { bytes, caseNames } = await snapshotXlsx(db, access, input.snapshot_id, today);
    // As the plan's own workbook (plan_case_area_yyyyMMdd), the area naming the snapshot.
    const name = csvFileName(access.plan.name, caseNames.join('-'), `snapshot-${input.snapshot_id}`, today);
    sendDownload(ctx, name.replace(/\.csv$/, '.xlsx'), XLSX_TYPE, Buffer.from(bytes));
    return undefined;
  });
}
