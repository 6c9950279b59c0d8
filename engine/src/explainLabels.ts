/**
 * The words of an explanation in the interface languages: the names of the rows, assumptions and plan inputs (in
 * English the workbook's own row labels), the periods, and the spreadsheet functions a formula is written with.
 */
import { ASSUMPTION_ROWS, type PlanName } from './compile/assumptions';
import { JA_ROW_LABELS, LANGUAGES, type Language } from './labels';
import { calendarOf } from './layout';
import { rowsFor } from './rows';
import type { Template } from './schema';

export type ExplainLanguage = Language;
export const EXPLAIN_LANGUAGES = LANGUAGES;

/** The rows' Japanese names, with the rows only an explanation reaches and longer names where a name needs one. */
const JA_ROWS: Readonly<Record<string, string>> = {
  ...JA_ROW_LABELS,
  t: '計画月',
  month_of_year: '年度内の月',
  segment: '成長区間（最初の目標到達からの年数）',
  arr_progress: 'ARR / 年度目標',
  cumulative_prev: '月初の顧客数',
  cumulative_operating_income: '累計営業利益',
  required_cash: '必要資金（累計営業損失の最大値）',
  other: 'その他の資金移動',
  cash_out_month: '資金が初めてマイナスになる月（0 = なし）',
};

const JA_ASSUMPTIONS: Record<string, string> = {
  case_rate: 'ケース倍率（ベースケース比）',
  growth_multiple: '翌年への成長倍率',
  arr: '目標ARR',
  mrr_target: '目標MRR',
  arpa: 'ARPA（年度初めの月額）',
  upselling_rate: 'アップセル率',
  upselling_month: 'アップセル開始月',
  churn_rate: '解約率（月次）',
  lead_rate: 'リード率',
  meeting_rate: '商談率',
  order_rate: '受注率',
  registration_rate: '登録率',
  billing_rate: '課金率',
  recurring_revenue_rate: 'リカーリング売上比率',
  cogs_rate: '売上原価率',
  sm_rate: 'S&M比率',
  rd_rate: 'R&D比率',
  ga_rate: 'G&A比率',
  employees: '従業員数（上書き）',
};

const PLAN_LABELS: Record<ExplainLanguage, Record<PlanName, string>> = {
  en: {
    template: 'Template',
    currency: 'Currency',
    target_arr: 'Target ARR of the plan',
    period: 'Months to reach the target ARR',
    plan_arpa: 'ARPA of the plan (monthly)',
    start_year: 'Start year',
    start_month: 'Start month',
    as_of_month: 'Plan month of today',
    arr_per_head: 'ARR per head',
    churn_band_low: 'ARPA band: up to',
    churn_band_high: 'ARPA band: up to (mid-market)',
    cash_tolerance: 'Cash-out tolerance',
  },
  ja: {
    template: 'テンプレート',
    currency: '通貨',
    target_arr: '計画の目標ARR',
    period: '目標ARRまでの月数',
    plan_arpa: '計画のARPA（月額）',
    start_year: '開始年',
    start_month: '開始月',
    as_of_month: '今日の計画月',
    arr_per_head: '1人当たりARR（人員計画の基準）',
    churn_band_low: 'ARPA帯: 以下',
    churn_band_high: 'ARPA帯: 以下（中堅）',
    cash_tolerance: '資金切れの許容差',
  },
};

const DAILY_LABELS: Record<ExplainLanguage, Record<string, string>> = {
  en: { meeting: 'Daily meetings', order: 'Daily orders', registration: 'Daily registrations', billing: 'Daily paid' },
  ja: { meeting: '日次の商談', order: '日次の受注', registration: '日次の登録', billing: '日次の課金' },
};

/** The spreadsheet functions in words. */
const FUNCTIONS: Record<ExplainLanguage, Record<string, string>> = {
  en: {
    SUM: 'sum',
    MIN: 'min',
    MAX: 'max',
    IF: 'if',
    IFERROR: 'if computable',
    AND: 'and',
    OR: 'or',
    ROUNDUP: 'round up',
    POWER: 'power',
    INDEX: 'pick',
  },
  ja: {
    SUM: '合計',
    MIN: '最小',
    MAX: '最大',
    IF: '条件',
    IFERROR: '計算できれば',
    AND: 'かつ',
    OR: 'または',
    ROUNDUP: '切り上げ',
    POWER: 'べき乗',
    INDEX: '選択',
  },
};

const PHRASES: Record<ExplainLanguage, { blank: string; blankNote: string; plan: string; actualView: string }> = {
  en: { blank: 'blank', blankNote: ' (blank when it cannot be computed)', plan: 'plan', actualView: 'actual' },
  ja: { blank: '空欄', blankNote: '（計算できないときは空欄）', plan: '計画', actualView: '実績' },
};

export class ExplainWords {
  private readonly rowLabels: Record<string, string>;
  constructor(
    readonly language: ExplainLanguage,
    template: Template,
    private readonly start: { year: number; month: number },
  ) {
    this.rowLabels =
      language === 'ja' ? JA_ROWS : Object.fromEntries(rowsFor(template).map((r) => [r.key, r.label] as const));
  }

  row(key: string): string {
    return this.rowLabels[key] ?? key;
  }

  assumption(key: string): string {
    if (this.language === 'ja') return JA_ASSUMPTIONS[key] ?? key;
    return ASSUMPTION_ROWS.find((r) => r.key === key)?.label ?? key;
  }

  plan(name: PlanName): string {
    return PLAN_LABELS[this.language][name];
  }

  daily(metric: string): string {
    return DAILY_LABELS[this.language][metric] ?? metric;
  }

  fn(name: string): string {
    return FUNCTIONS[this.language][name] ?? name.toLowerCase();
  }

  get phrases() {
    return PHRASES[this.language];
  }

  /** A period's short name: "Apr 2026" / "2026年4月", "Y1 Q2" / "1年目 Q2", "Y1" / "1年目". */
  period(year: number, period: string): string {
    if (/^\d+$/.test(period)) {
      const c = calendarOf(this.start.year, this.start.month, 12 * (year - 1) + Number(period));
      if (this.language === 'ja') return `${c.year}年${c.month}月`;
      return `${MONTHS[c.month - 1]} ${c.year}`;
    }
    const y = this.language === 'ja' ? `${year}年目` : `Y${year}`;
    return period === 'cy' ? y : `${y} ${period.toUpperCase()}`;
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
