/**
 * Downloads of the plan as a spreadsheet: the XLSX workbook of every case with live formulas (the P&L and the
 * monthly P&L), and the monthly P&L's CSV of the view on screen. Files come in the interface language.
 */
import type { MonthlyCsvView } from '@topline/contract';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../api/client';
import { currentLanguage } from '../../i18n';
import { useNotice } from '../../notices';
import type { ScreenView } from '../monthly/model';

/** Fetches a file of the API and saves it under the name its Content-Disposition gives. */
async function saveFile(path: string, query: Record<string, string | number | undefined>, fallbackName: string) {
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
export function XlsxDownloadButton({ planId, planName }: { planId: number; planName: string }) {
  const { t } = useTranslation();
  const download = useDownload();
  return (
    <button
      type="button"
      className="button button-small button-ghost"
      data-test="xlsx-download"
      title={t('ws.common.xlsxHint')}
      onClick={() => download('/business-plan/xlsx', { business_plan_id: planId }, `${planName}.xlsx`)}
    >
      {t('ws.common.xlsx')}
    </button>
  );
}

/** The CSV view of a monthly P&L screen view: the revised forecast is in the actual view, variance is difference. */
export const monthlyCsvView = (view: ScreenView): MonthlyCsvView =>
  view === 'variance' ? 'difference' : view === 'revise' ? 'actual' : view;

/** The monthly P&L's CSV of one case, plan year and view. */
export function MonthlyCsvButton(props: { planId: number; caseId: number; year: number; view: ScreenView }) {
  const { t, i18n } = useTranslation();
  const download = useDownload();
  const view = monthlyCsvView(props.view);
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
          },
          `monthly_${view}.csv`,
        )
      }
    >
      {t('ws.common.csv')}
    </button>
  );
}
