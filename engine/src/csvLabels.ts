/**
 * The words of the CSV downloads in the interface language (Japanese or English): header words and row labels. The
 * first column keeps the row's key in both, so a file can be read by a program whatever the language. English keeps
 * the engine's row labels; Japanese uses the working screens' names (`labels.ts`).
 */
import { JA_ROW_LABELS, type Language } from './labels';
import { ROWS } from './rows';

export type CsvLanguage = Language;

/** The label of a metric row. */
export function csvLabel(key: string, lang: CsvLanguage): string {
  if (lang === 'ja') return JA_ROW_LABELS[key] ?? key;
  return ROWS.find((r) => r.key === key)?.label ?? key;
}

const WORDS = {
  item: { en: 'item', ja: '項目' },
  label: { en: 'label', ja: '名称' },
  statusLabel: { en: 'Actual (ACT) or forecast (EST)', ja: '実績(ACT)・予測(EST)' },
  period: { en: 'period', ja: '期間' },
  month: { en: 'month', ja: '月' },
  year: { en: 'Y', ja: '年目' },
} as const;

/** A header word. */
export function csvWord(word: keyof typeof WORDS, lang: CsvLanguage): string {
  return WORDS[word][lang];
}

/** The column header of plan year n: `Y1` or `1年目`. */
export const yearHeader = (n: number, lang: CsvLanguage): string => (lang === 'ja' ? `${n}年目` : `Y${n}`);

/** A quarter's or the year's column header: `Q1` / `第1四半期`, `CY` / `通期`. */
export const periodHeader = (kind: 'quarter' | 'cy', quarter: number, lang: CsvLanguage): string =>
  kind === 'cy' ? (lang === 'ja' ? '通期' : 'CY') : lang === 'ja' ? `第${quarter}四半期` : `Q${quarter}`;

/** The revenue CSV's column headers: keys in English (as before), names in Japanese. */
export function revenueHeaders(lang: CsvLanguage): string[] {
  const keys = [
    'period',
    'month',
    'mrr',
    'professional_service',
    'revenue',
    'cumulative_revenue',
    'recurring_revenue_rate',
  ];
  if (lang === 'en') return keys;
  return [csvWord('period', lang), csvWord('month', lang), ...keys.slice(2).map((k) => csvLabel(k, lang))];
}

/**
 * The language of a download: `lang` when given, else the first of `Accept-Language` that is Japanese or English,
 * else English.
 */
export function csvLanguage(lang: string | undefined, acceptLanguage: string | undefined): CsvLanguage {
  if (lang === 'ja' || lang === 'en') return lang;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((r) => r.tag !== '' && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    if (tag === 'ja' || tag.startsWith('ja-')) return 'ja';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}
