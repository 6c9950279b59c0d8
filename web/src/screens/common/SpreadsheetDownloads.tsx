/**
 * The plan as a spreadsheet: the XLSX workbook of every case with live formulas (the P&L and the monthly P&L), the
 * import of the actuals typed into its actual-inputs sheets, and the monthly P&L's CSV of the view on screen. Files
 * come in the interface language.
 */
import type { MonthlyCsvView } from '@topline/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, getToken } from '../../api/client';
import { currentLanguage } from '../../i18n';
import { useNotice } from '../../notices';
import type { SavedAnswer } from '../../plan/engineSession';
import type { ScreenView } from '../monthly/model';

/** Fetches a file of the API and saves it under the name its Content-Disposition gives. */
export async function saveFile(path: string, query: Record<string, string | number | undefined>, fallbackName: string) {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const token = getToken();
  const response = await fetch(url, {
    headers: { 'X-Requested-With': 'XMLHttpRequest', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message || `download failed: ${response.status}`);
  }
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const encoded = disposition.match(/filename\*=UTF-8''([^;]+)/)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : fallbackName;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function useDownload() {
  const { t } = useTranslation();
  const notice = useNotice();
  return (path: string, query: Record<string, string | number | undefined>, fallbackName: string) =>
    void saveFile(path, query, fallbackName).catch((error: unknown) =>
      notice({
        kind: 'error',
        title: t('errors.title'),
        message:
          error instanceof Error && !error.message.startsWith('download failed')
            ? error.message
            : t('errors.unexpected'),
      }),
    );
}

/** The XLSX workbook of every case, with live formulas and a sheet per case to type actuals into. */
export function XlsxDownloadButton({
  planId,
  planName,
  snapshotId,
}: {
  planId: number;
  planName: string;
  /** With a snapshot chosen as the budget: each case also gets its sheet against the snapshot. */
  snapshotId?: number | undefined;
}) {
  const { t } = useTranslation();
  const download = useDownload();
  const query = { business_plan_id: planId, ...(snapshotId === undefined ? {} : { snapshot_id: snapshotId }) };
  return (
    <button
      type="button"
      className="button button-small button-ghost"
      data-test="xlsx-download"
      title={t('ws.common.xlsxHint')}
      onClick={() => download('/business-plan/xlsx', query, `${planName}.xlsx`)}
    >
      {t('ws.common.xlsx')}
    </button>
  );
}

/**
 * The CSV view of a monthly P&L screen view: the revised forecast is in the actual view, variance is what the screen
 * shows of it, the difference in rates or in values.
 */
export const monthlyCsvView = (view: ScreenView, variance: 'rate' | 'value' = 'rate'): MonthlyCsvView => {
  if (view === 'variance') return variance === 'rate' ? 'difference_rate' : 'difference';
  return view === 'revise' ? 'actual' : view;
};

/** The monthly P&L's CSV of one case, plan year and view (and the variance's mode, rates or values). */
export function MonthlyCsvButton(props: {
  planId: number;
  caseId: number;
  year: number;
  view: ScreenView;
  variance: 'rate' | 'value';
  /** The snapshot whose estimate is the budget of progress and variance, if one is chosen. */
  snapshotId?: number | undefined;
}) {
  const { t, i18n } = useTranslation();
  const download = useDownload();
  const view = monthlyCsvView(props.view, props.variance);
  return (
    <button
      type="button"
      className="button button-small button-ghost"
      data-test="monthly-csv"
      onClick={() =>
        download(
          '/pl/monthly/csv',
          {
            business_plan_id: props.planId,
            case_id: props.caseId,
            year: props.year,
            view,
            lang: currentLanguage(i18n.language),
            ...(props.snapshotId === undefined ? {} : { snapshot_id: props.snapshotId }),
          },
          `monthly_${view}.csv`,
        )
      }
    >
      {t('ws.common.csv')}
    </button>
  );
}

/**
 * Imports an exported XLSX file's actual-inputs sheets (needs can_edit on actuals). All or nothing: a refusal lists
 * every wrong cell in the client's error notice.
 */
export function XlsxImportButton({
  planId,
  onImported,
}: {
  planId: number;
  /** After an import that changed something, with its answer (the change set the browser's workbook follows). */
  onImported: (answer: SavedAnswer) => void;
}) {
  const { t } = useTranslation();
  const notice = useNotice();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    const form = new FormData();
    form.set('business_plan_id', String(planId));
    form.set('file', file);
    setBusy(true);
    try {
      const answer = await api.post('/business-plan/xlsx/import', form);
      const count = answer.body.data.changes.length;
      notice({ kind: 'success', title: t('ws.common.xlsxImported'), message: t('ws.common.xlsxChanges', { count }) });
      if (count > 0) onImported(answer);
    } catch {
      // The client has shown the refusal (every wrong cell).
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <>
      <button
        type="button"
        className="button button-small button-ghost"
        data-test="xlsx-import"
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        {t('ws.common.xlsxImport')}
      </button>
      <input
        ref={input}
        type="file"
        hidden
        data-test="xlsx-import-file"
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void upload(file);
        }}
      />
    </>
  );
}
