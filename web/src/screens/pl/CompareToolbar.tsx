import type { Snapshot } from '@topline/contract';
import { COMPARE_MEASURES, type CompareMeasure } from '@topline/engine/shapes';
import { useTranslation } from 'react-i18next';
import { yyyymmdd } from '../../format/numbers';
import { download } from '../../plan/answers';
import { saveFile } from '../common/SpreadsheetDownloads';
import { Tabs } from '../common/ui';
import { SnapshotChoice } from './SnapshotChoice';
/**
 * The comparison's measure, the snapshot set beside the cases, and the downloads of what it shows: the CSV, and the
 * XLSX whose differences are live formulas.
 */
export function CompareToolbar({
  measure,
  onMeasure,
  planId,
  planName,
  onError,
  snapshots,
  snapshot,
  onSnapshot,
}: {
  measure: CompareMeasure;
  onMeasure: (measure: CompareMeasure) => void;
  planId: number;
  planName: string;
  onError: () => void;
  /** The plan's snapshots, one of which may be set beside the cases (Basic or Team, the monthly P&L's read). */
  snapshots: Snapshot[] | null;
  snapshot: number | null;
  onSnapshot: (snapshotId: number | null) => void;
}) {
  const { t } = useTranslation();
  const today = yyyymmdd(new Date());
  // The downloads hold what the screen shows: the snapshot set beside the cases, if it is still the plan's.
  const query = {
    business_plan_id: planId,
    snapshot_id: snapshot !== null && snapshots?.some((s) => s.id === snapshot) ? snapshot : undefined,
  };
  return (
    <div className="ws-toolbar">
      <Tabs
        label={t('ws.compare.measure')}
        current={measure}
        onChange={onMeasure}
        testId="compare-measure"
        tabs={COMPARE_MEASURES.map((key) => ({ key, label: t(`ws.compare.measures.${key}`) }))}
      />
      <SnapshotChoice
        snapshots={snapshots}
        current={snapshot}
        onChange={onSnapshot}
        label={t('ws.budget.snapshotCase')}
        none={t('ws.budget.noCompare')}
        testId="compare-snapshot"
      />
      <div className="ws-toolbar-right">
        <button
          type="button"
          className="button button-small button-ghost"
          data-test="compare-csv"
          onClick={() => void download('/pl/compare/csv', query, `${planName}_compare_${today}.csv`).catch(onError)}
        >
          {t('ws.compare.csv')}
        </button>
        <button
          type="button"
          className="button button-small button-ghost"
          data-test="compare-xlsx"
          title={t('ws.compare.xlsxHint')}
          onClick={() => void saveFile('/pl/compare/xlsx', query, `${planName}_compare_${today}.xlsx`).catch(onError)}
        >
          {t('ws.compare.xlsx')}
        </button>
      </div>
    </div>
  );
}
