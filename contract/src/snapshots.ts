/**
 * Snapshots: a plan of record. The owner, or a member who may edit the monthly P&L, saves the plan's inputs as they
 * stand under a name ("Board plan FY2026"), with who saved them and when. A snapshot is inputs only, like everything
 * stored: its numbers (its XLSX) come from the same engine. They follow the monthly P&L area's role and the owner's
 * tier (Basic or Team): viewers list them; editors save and rename them; the owner deletes them. The XLSX holds every
 * area, so, like the plan's own XLSX, it needs the owner or a member who may see every area; a restore rewrites every
 * area, so it needs what a restore from the history needs, and is recorded in the history as one change.
 */
import { z } from 'zod';
import { successAnswer } from './answers';
import { singleLineText } from './fields';
import { jsonRoute } from './jsonRoute';
import { planIdField, planIdText, planQuery } from './plans';
import type { Route } from './route';
import { body, idField, idText } from './wire';

/** The longest snapshot name, in characters. */
export const SNAPSHOT_NAME_MAX = 80;
/** How many snapshots a plan holds at most. */
export const SNAPSHOT_LIMIT = 20;

export const snapshot = z.object({
  id: z.number(),
  name: z.string(),
  /** Who saved it (their name, or e-mail address without one); null once that user is gone. */
  created_by: z.string().nullable(),
  /** When it was saved (ISO 8601). */
  created_at: z.string(),
});
export type Snapshot = z.infer<typeof snapshot>;

/** GET /snapshot/list: the plan's snapshots, newest first, and what the caller may do with them. */
export const snapshotListAnswer = z.object({
  data: z.object({
    snapshots: z.array(snapshot),
    /** Save and rename: the owner or can_edit on the monthly P&L. */
    can_edit: z.boolean(),
    /** Delete: the owner. */
    can_delete: z.boolean(),
    /** Restore: the owner or can_edit on every area, as a restore from the history. */
    can_restore: z.boolean(),
    /** Download: the owner or a member who may see every area. */
    can_download: z.boolean(),
  }),
});

const snapshotName = singleLineText('name', SNAPSHOT_NAME_MAX, { required: true });
const snapshotIdField = idField('snapshot_id');

export const snapshotCreateRequest = body({ business_plan_id: planIdField, name: snapshotName });
export const snapshotRenameRequest = body({
  business_plan_id: planIdField,
  snapshot_id: snapshotIdField,
  name: snapshotName,
});
export const snapshotIdRequest = body({ business_plan_id: planIdField, snapshot_id: snapshotIdField });
/** A snapshot named in a GET's query. */
export const snapshotIdText = idText('snapshot_id');
export const snapshotXlsxQuery = body({ business_plan_id: planIdText, snapshot_id: snapshotIdText });
export const snapshotAnswer = z.object({ data: z.object({ snapshot }) });
/** The change that recorded the restore, and the plan's version after it. */
export const snapshotRestoreAnswer = z.object({ data: z.object({ id: z.number(), version: z.number() }) });

const MONTHLY_PL = { kind: 'scope', scope: 'monthly_pl' } as const;
const OWNER = { kind: 'owner' } as const;
const EVERY_AREA = { kind: 'every_area' } as const;

const call = jsonRoute;

/** The snapshot's XLSX: a file, so declared in full rather than through `jsonRoute`. */
const snapshotXlsx: Route<typeof snapshotXlsxQuery, z.ZodString> & {
  method: 'GET';
  path: '/snapshot/xlsx';
  needs: typeof EVERY_AREA;
  body: undefined;
  file: 'xlsx';
} = {
  method: 'GET',
  path: '/snapshot/xlsx',
  request: snapshotXlsxQuery,
  answer: z.string(),
  needs: EVERY_AREA,
  body: undefined,
  file: 'xlsx',
};

/** The snapshot calls, spread into the route table. */
export const snapshotRoutes = {
  snapshotList: call('GET', '/snapshot/list', planQuery, snapshotListAnswer, MONTHLY_PL),
  /** 400 `limit` `snapshots` when the plan holds `SNAPSHOT_LIMIT` already. */
  snapshotCreate: call('POST', '/snapshot/create', snapshotCreateRequest, snapshotAnswer, MONTHLY_PL, 201),
  snapshotRename: call('POST', '/snapshot/rename', snapshotRenameRequest, snapshotAnswer, MONTHLY_PL),
  snapshotDelete: call('POST', '/snapshot/delete', snapshotIdRequest, successAnswer, OWNER),
  /** Puts every input back as the snapshot holds them, as one new change of the history. */
  snapshotRestore: call('POST', '/snapshot/restore', snapshotIdRequest, snapshotRestoreAnswer, EVERY_AREA),
  /** The engine's XLSX of the snapshot's inputs, as `/business-plan/xlsx` builds the live plan's. */
  snapshotXlsx,
};
