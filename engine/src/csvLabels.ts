/**
 * The words of the CSV downloads in the interface language (Japanese or English): header words and row labels. The
 * first column keeps the row's key in both, so a file can be read by a program whatever the language. English keeps
 * the engine's row labels; Japanese uses the working screens' names (web/src/i18n/screens.ja.ts).
 */
import { ROWS } from './rows';

export const CSV_LANGUAGES = ['ja', 'en'] as const;
export type CsvLanguage = (typeof CSV_LANGUAGES)[number];

const JA_LABELS: Record<string, string> = {
  arr: 'ARR',
  mrr: 'MRR',
  revenue: '売上高',
  cogs: '売上原価',
  cogs_rate: '売上原価率',
  gross_profit: '売上総利益',
  gross_profit_rate: '売上総利益率',
  operating_expense: '販管費',
  operating_expense_rate: '販管費率',
  sm: 'S&M',
  sm_rate: 'S&M比率',
  rd: 'R&D',
  rd_rate: 'R&D比率',
  ga: 'G&A',
  ga_rate: 'G&A比率',
  operating_income: '営業利益',
  operating_income_rate: '営業利益率',
  employees: '従業員数',
  arr_per_headcount: '1人当たりARR',
  revenue_per_headcount: '1人当たり売上高',
  required_cash: '必要資金',
  arpa: 'ARPA',
  session: 'セッション',
  lead: 'リード',
  lead_cvr: 'リードCVR',
  meeting: '商談',
  meeting_cvr: '商談CVR',
  order: '新規顧客',
  order_cvr: '受注CVR',
  registration: '登録',
  registration_cvr: '登録CVR',
  churn: '解約顧客',
  churn_cvr: '解約率',
  cumulative: '累計顧客',
  ltv: 'LTV',
  cac: 'CAC',
  ltv_cac: 'LTV / CAC',
  revenue_rate: '売上成長率',
  professional_service: 'プロフェッショナルサービス',
  professional_service_rate: 'プロフェッショナルサービス比率',
  recurring_revenue_rate: 'リカーリング売上比率',
  cumulative_revenue: '累計売上高',
  burn_multiple: 'バーンマルチプル',
  beginning_cash_balance: '期首現預金',
  equity_raised: '株式調達',
  debt_raised: '借入',
  debt_payment: '返済',
  other: 'その他',
  net_cash_movement: '現預金増減',
  ending_cash_balance: '期末現預金',
};

/** The label of a metric row. */
export function csvLabel(key: string, lang: CsvLanguage): string {
  if (lang === 'ja') return JA_LABELS[key] ?? key;
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
