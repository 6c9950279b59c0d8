/**
 * The cases side by side as CSV (MODEL.md section 8's conventions): per compared figure, each case's row of plan
 * years, then each other case's difference from the base case as a value and a rate; with a snapshot set beside the
 * cases, the snapshot's row and its difference from the live base case last (`snapshotCompared`). Read from
 * `caseComparison`, so the file holds the numbers the screen shows; a rate of a zero base is left empty (the screen's
 * dash).
 */
import { type CsvRows, csvFigure, formatCsvNumber, toCsv } from './csv';
import { type CsvLanguage, csvLabel, csvWord, yearHeader } from './csvLabels';
import { COMPARE_KEYS, COMPARE_ROWS, type CompareRecord, caseComparison } from './read/caseComparison';
import { type ComparedSnapshot, snapshotCaseLabel, snapshotCompared } from './read/snapshotComparison';
import { PLAN_YEARS } from './schema';
import type { PlanWorkbook } from './workbook';

const WORDS = {
  case: { en: 'case', ja: 'ケース' },
  figure: { en: 'figure', ja: '区分' },
  value: { en: 'value', ja: '値' },
  difference: { en: 'difference', ja: '差額' },
  difference_rate: { en: 'difference rate', ja: '差異率' },
} as const;

/** Every compared figure of every case by plan year, with the differences from the base case. */
export function comparisonCsvRows(wb: PlanWorkbook, lang: CsvLanguage = 'en', snapshot?: ComparedSnapshot): CsvRows {
  const { cases } = caseComparison(wb);
  const frozen = snapshot ? snapshotCompared(wb, snapshot.workbook) : undefined;
  const frozenName = snapshot ? snapshotCaseLabel(snapshot.name, lang) : '';
  const currency = wb.plan.currency;
  const years = Array.from({ length: PLAN_YEARS }, (_, i) => i + 1);
  const header = [
    csvWord('item', lang),
    csvWord('label', lang),
    WORDS.case[lang],
    WORDS.figure[lang],
    ...years.map((y) => yearHeader(y, lang)),
  ];
  return (function* () {
    yield header;
    for (const key of COMPARE_KEYS) {
      const row = COMPARE_ROWS[key];
      const line = (
        caseName: string,
        kind: 'value' | 'difference' | 'difference_rate',
        of: (year: number) => CompareRecord | null,
      ) => {
        // A rate is a percentage whatever the figure is.
        const format = kind === 'difference_rate' ? 'difference_rate' : row;
        return [
          key,
          csvLabel(row, lang),
          caseName,
          WORDS[kind][lang],
          ...years.map((y) => csvFigure(formatCsvNumber(format, of(y)?.[key] ?? null, currency))),
        ];
      };
      for (const c of cases) yield line(c.case_name, 'value', (y) => c.years[y - 1]?.values ?? null);
      for (const c of cases.slice(1)) {
        yield line(c.case_name, 'difference', (y) => c.years[y - 1]?.difference ?? null);
        yield line(c.case_name, 'difference_rate', (y) => c.years[y - 1]?.difference_rate ?? null);
      }
      if (frozen) {
        yield line(frozenName, 'value', (y) => frozen.years[y - 1]?.values ?? null);
        yield line(frozenName, 'difference', (y) => frozen.years[y - 1]?.difference ?? null);
        yield line(frozenName, 'difference_rate', (y) => frozen.years[y - 1]?.difference_rate ?? null);
      }
    }
  })();
}

/** `comparisonCsvRows` as the file's text. */
export const comparisonCsv = (...args: Parameters<typeof comparisonCsvRows>): string =>
  toCsv(comparisonCsvRows(...args));
