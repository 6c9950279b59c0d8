import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { isNegativeText } from '../../format/numbers';
import { formatCell } from '../../grid/YearTable';
import { COMPARE_ROWS, type CompareCase } from './compareModel';
import '../../styles/screens/compare.css';

/** The dash of a rate without a base (a zero base figure): DESIGN.md's rule for a rate of a zero base. */
const DASH = '–';

function Cell({ text, title }: { text: string; title?: string }) {
  return (
    <td
      className={isNegativeText(text) ? 'ws-num ws-negative' : 'ws-num'}
      title={title}
      data-dash={title ? 'zero_base' : undefined}
    >
      {text}
    </td>
  );
}

/**
 * Every case's figures per plan year, then each other case's difference from the base case as a value and a
 * percentage, and each case's runway (issue 40). Every number is the engine's (`GET /pl/compare`).
 */
export function CaseComparisonTable({
  cases,
  yearHeaders,
  label,
}: {
  cases: readonly CompareCase[];
  yearHeaders: string[];
  label: (caseName: string) => string;
}) {
  const { t } = useTranslation();
  const [base, ...others] = cases;
  if (!base) return null;
  const baseName = label(base.case_name);
  return (
    // A region that scrolls sideways on a narrow screen: focusable, so the keyboard can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1)
    <section className="ws-compare-scroll" aria-label={t('ws.compare.table')} tabIndex={0}>
      <table className="ws-compare" data-test="compare-table">
        <caption>{t('ws.compare.table')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('ws.compare.item')}</th>
            <th scope="col">{t('ws.compare.case')}</th>
            {yearHeaders.map((h) => (
              <th key={h} scope="col" className="ws-num">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {COMPARE_ROWS.map(({ key, format, label: rowLabel }) => (
            <Fragment key={key}>
              {cases.map((c, i) => (
                <tr
                  key={c.case_id}
                  data-row={key}
                  data-case={i}
                  data-kind="value"
                  className={i === 0 ? 'ws-compare-first' : undefined}
                >
                  {i === 0 && (
                    <th scope="rowgroup" rowSpan={cases.length + 2 * others.length}>
                      {t(`ws.rows.${rowLabel}`)}
                    </th>
                  )}
                  <th scope="row">{label(c.case_name)}</th>
                  {c.years.map((y) => (
                    <Cell key={y.year} text={formatCell(y.values[key], format)} />
                  ))}
                </tr>
              ))}
              {others.map((c, n) => (
                <Fragment key={c.case_id}>
                  <tr data-row={key} data-case={n + 1} data-kind="difference" className="ws-compare-difference">
                    <th scope="row">
                      {label(c.case_name)} <small>{t('ws.compare.difference', { base: baseName })}</small>
                    </th>
                    {c.years.map((y) => (
                      <Cell key={y.year} text={formatCell(y.difference?.[key], format)} />
                    ))}
                  </tr>
                  <tr data-row={key} data-case={n + 1} data-kind="difference_rate" className="ws-compare-difference">
                    <th scope="row">
                      {label(c.case_name)} <small>{t('ws.compare.differenceRate', { base: baseName })}</small>
                    </th>
                    {c.years.map((y) => {
                      const rate = y.difference_rate?.[key] ?? null;
                      if (rate !== null) return <Cell key={y.year} text={formatCell(rate, 'percent')} />;
                      // Both figures there and still no rate: the base is zero up to residue, a dash saying why.
                      const zeroBase = (y.difference?.[key] ?? null) !== null;
                      return zeroBase ? (
                        <Cell key={y.year} text={DASH} title={t('residue.zeroBase')} />
                      ) : (
                        <Cell key={y.year} text="" />
                      );
                    })}
                  </tr>
                </Fragment>
              ))}
            </Fragment>
          ))}
        </tbody>
        <tfoot>
          {cases.map((c, i) => (
            <tr key={c.case_id} data-row="runway" data-case={i}>
              {i === 0 && (
                <th scope="rowgroup" rowSpan={cases.length}>
                  {t('ws.compare.runway')}
                </th>
              )}
              <th scope="row">{label(c.case_name)}</th>
              <td colSpan={yearHeaders.length}>
                {c.forecast_monthes === null
                  ? t('ws.compare.noCashOut')
                  : t('ws.compare.runwayMonths', { months: c.forecast_monthes })}
              </td>
            </tr>
          ))}
        </tfoot>
      </table>
    </section>
  );
}
