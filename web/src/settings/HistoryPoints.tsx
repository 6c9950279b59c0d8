import type { HistoryCompareAnswer, HistoryEntry, HistoryPoint } from '@topline/contract';
import { useTranslation } from 'react-i18next';
import { formatNumber, isNegative } from '../format/numbers';
import { caseLabel } from '../plan/caseNames';
import { HistoryItemLine } from './HistoryItemLine';
import { changeTime } from './historyText';

/** The annual P&L rows shown for a moment of the plan: the money rows of the P&L screen's top level. */
export const HISTORY_PL_ROWS = ['revenue', 'gross_profit', 'operating_cost', 'operating_pl', 'arr'] as const;
type PlRow = (typeof HISTORY_PL_ROWS)[number];
const YEARS = [1, 2, 3, 4, 5, 6] as const;

type CasePl = HistoryPoint['values'][number];
interface Column {
  point: 'from' | 'to' | 'at';
  label: string;
  pl: CasePl['pl'] | null;
}

const figureOf = (pl: CasePl['pl'] | null, row: PlRow, year: number): number | null => {
  const value = pl?.find((entry) => entry.year === year)?.[row];
  return typeof value === 'number' ? value : null;
};
/** Two figures differ as shown: whole amounts, so a float residue is not marked. */
const shownDiffers = (a: number | null, b: number | null) =>
  (a === null ? null : Math.round(a)) !== (b === null ? null : Math.round(b));

function Figure({ value, differs }: { value: number | null; differs?: boolean }) {
  const classes = [isNegative(value) ? 'history-negative' : '', differs ? 'history-differs' : ''].filter(Boolean);
  return (
    <td className={classes.join(' ')} data-value={value ?? ''}>
      {value === null ? '—' : formatNumber(value, 0)}
    </td>
  );
}

/** One case's annual P&L at one or two moments: each row's years, one line per moment, differences marked. */
function CaseTable({ caseId, name, columns }: { caseId: number; name: string; columns: Column[] }) {
  const { t } = useTranslation();
  const compared = columns.length > 1;
  return (
    <section className="history-case" data-test="history-case" data-case-id={caseId}>
      <h5>{caseLabel(name, t)}</h5>
      <table className="history-pl" data-test="history-pl">
        <thead>
          <tr>
            <th scope="col" colSpan={compared ? 2 : 1} />
            {YEARS.map((year) => (
              <th key={year} scope="col">
                {t('ws.common.yearN', { n: year })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {HISTORY_PL_ROWS.flatMap((row) =>
            columns.map((column, index) => (
              <tr key={`${row}-${column.point}`} data-row={row} data-point={column.point}>
                {index === 0 && (
                  <th scope="rowgroup" rowSpan={columns.length}>
                    {t(`ws.rows.${row}`)}
                  </th>
                )}
                {compared && <th scope="row">{column.label}</th>}
                {YEARS.map((year) => {
                  const value = figureOf(column.pl, row, year);
                  const other = compared ? figureOf(columns[1 - index]?.pl ?? null, row, year) : value;
                  return <Figure key={year} value={value} differs={compared && shownDiffers(value, other)} />;
                })}
              </tr>
            )),
          )}
        </tbody>
      </table>
    </section>
  );
}

/** The annual P&L of the plan right after one change (GET /history/plan). */
export function HistoryPointView({ point }: { point: HistoryPoint }) {
  const { t } = useTranslation();
  return (
    <div className="history-result" data-test="history-point" data-at={point.at}>
      <h4>{t('history.pointTitle', { date: changeTime(point.committed_at) })}</h4>
      <p className="muted">
        {point.business_plan_name} · {t('history.currency', { currency: point.currency })}
      </p>
      {point.values.map((entry) => (
        <CaseTable
          key={entry.case_id}
          caseId={entry.case_id}
          name={entry.case_name}
          columns={[{ point: 'at', label: '', pl: entry.pl }]}
        />
      ))}
    </div>
  );
}

/**
 * Two moments of the plan (GET /history/compare): the inputs that differ (old at the earlier, new at the later) and
 * each case's annual P&L at both, a case that exists at one moment only shown with dashes at the other.
 */
export function HistoryCompareView({
  answer,
  plan,
}: {
  answer: HistoryCompareAnswer['data'];
  plan: { start_year: number; start_month: number };
}) {
  const { t } = useTranslation();
  const { from, to, inputs } = answer;
  const fromLabel = t('history.fromAt', { date: changeTime(from.committed_at) });
  const toLabel = t('history.toAt', { date: changeTime(to.committed_at) });
  const caseIds = [
    ...to.values.map((entry) => entry.case_id),
    ...from.values.map((entry) => entry.case_id).filter((id) => !to.values.some((entry) => entry.case_id === id)),
  ];
  const currencies = from.currency === to.currency ? from.currency : `${from.currency} → ${to.currency}`;
  return (
    <div className="history-result" data-test="history-compare-result" data-from={from.at} data-to={to.at}>
      <h4>{t('history.compareTitle')}</h4>
      <p className="muted">
        {fromLabel} → {toLabel} · {t('history.currency', { currency: currencies })}
      </p>
      <h5>{t('history.inputs')}</h5>
      {inputs.length === 0 ? (
        <p className="muted">{t('history.noInputs')}</p>
      ) : (
        <ul className="history-items" data-test="history-inputs">
          {inputs.map((item: HistoryEntry, index) => (
            <HistoryItemLine
              // biome-ignore lint/suspicious/noArrayIndexKey: an input of a comparison has no id of its own
              key={index}
              item={item}
              plan={plan}
            />
          ))}
        </ul>
      )}
      <h5>{t('history.pl')}</h5>
      {caseIds.map((caseId) => {
        const before = from.values.find((entry) => entry.case_id === caseId);
        const after = to.values.find((entry) => entry.case_id === caseId);
        return (
          <CaseTable
            key={caseId}
            caseId={caseId}
            name={after?.case_name ?? before?.case_name ?? ''}
            columns={[
              { point: 'from', label: t('history.from'), pl: before?.pl ?? null },
              { point: 'to', label: t('history.to'), pl: after?.pl ?? null },
            ]}
          />
        );
      })}
    </div>
  );
}
