/**
 * The words of an explanation in the interface languages: the names of the rows, assumptions and plan inputs (in
 * English the workbook's own row labels), the periods, and the spreadsheet functions a formula is written with.
 */

import { calendarOf, planMonthAt } from './calendar';
import { ASSUMPTION_ROWS, type PlanName } from './compile/assumptions';
import type { DashboardColumn, DashboardScalar } from './compile/dashboard';
import type { ExplainView } from './explainKeys';
import { JA_ROW_LABELS, LANGUAGES, type Language } from './labels';
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

/** A row's figure in a view other than the plan and the actual view, `{row}` standing for the row's name. */
const VIEW_ROWS: Record<ExplainLanguage, Record<Exclude<ExplainView, 'estimate' | 'actual'>, string>> = {
  en: {
    progress: 'Progress of {row} (actual ÷ plan, ACT months)',
    difference_value: 'Difference of {row} (actual − plan, ACT months)',
    difference_rate: 'Difference rate of {row} (actual ÷ plan − 1, ACT months)',
    actual_to_date: '{row} (actual of the ACT months)',
    estimate_to_date: '{row} (plan of the ACT months)',
  },
  ja: {
    progress: '{row}の進捗率（実績÷計画、実績月）',
    difference_value: '{row}の差異（実績−計画、実績月）',
    difference_rate: '{row}の差異率（実績÷計画−1、実績月）',
    actual_to_date: '{row}（実績月の実績）',
    estimate_to_date: '{row}（実績月の計画）',
  },
};

/** An input's view when it is not the view of the figure explained, as a note beside its name. */
const VIEW_NOTES: Record<ExplainLanguage, Record<ExplainView, string>> = {
  en: {
    estimate: 'plan',
    actual: 'actual',
    progress: 'progress',
    difference_value: 'difference',
    difference_rate: 'difference rate',
    actual_to_date: 'actual of the ACT months',
    estimate_to_date: 'plan of the ACT months',
  },
  ja: {
    estimate: '計画',
    actual: '実績',
    progress: '進捗率',
    difference_value: '差異',
    difference_rate: '差異率',
    actual_to_date: '実績月の実績',
    estimate_to_date: '実績月の計画',
  },
};

/** The dashboard's columns of a metric, `{row}` standing for the metric's name. */
const DASHBOARD_COLUMN_LABELS: Record<ExplainLanguage, Record<DashboardColumn, string>> = {
  en: {
    latest_value: '{row}: latest actual',
    ave_three_monthes: '{row}: 3-month average',
    ave_six_monthes: '{row}: 6-month average',
    ave_twelve_monthes: '{row}: 12-month average',
    fiscal_year_achieved: '{row}: fiscal year achieved',
  },
  ja: {
    latest_value: '{row}（最新の実績）',
    ave_three_monthes: '{row}（3か月平均）',
    ave_six_monthes: '{row}（6か月平均）',
    ave_twelve_monthes: '{row}（12か月平均）',
    fiscal_year_achieved: '{row}（年度達成率）',
  },
};

const DASHBOARD_SCALAR_LABELS: Record<ExplainLanguage, Record<DashboardScalar, string>> = {
  en: {
    latest_actual_month: 'Latest actual month (plan month)',
    runway_from_month: 'Runway counted from (plan month)',
    cash_out_month: 'Cash-out month (plan month, 0 = none)',
    forecast_monthes: 'Months of runway',
    mrr_goal: 'MRR goal (year-end plan)',
    mrr_as_is: 'MRR as is (latest actual)',
    mrr_progress_percent: 'MRR progress (%)',
  },
  ja: {
    latest_actual_month: '最新の実績月（計画月）',
    runway_from_month: 'ランウェイの起点（計画月）',
    cash_out_month: '資金が初めてマイナスになる月（計画月、0 = なし）',
    forecast_monthes: 'ランウェイ（月数）',
    mrr_goal: 'MRR目標（年度末の計画）',
    mrr_as_is: 'MRR現在（最新の実績）',
    mrr_progress_percent: 'MRR進捗（%）',
  },
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

  /** A row's name in a view: the row's own name in the plan and the actual view, else what the view compares. */
  viewRow(view: ExplainView, key: string): string {
    if (view === 'estimate' || view === 'actual') return this.row(key);
    return VIEW_ROWS[this.language][view].replace('{row}', this.row(key));
  }

  /** The note beside an input read in another view than the figure explained ("plan", "actual of the ACT months"). */
  viewNote(view: ExplainView): string {
    return VIEW_NOTES[this.language][view];
  }

  /** A dashboard figure of a metric row ("MRR: 3-month average"). */
  dashboard(column: DashboardColumn, key: string): string {
    return DASHBOARD_COLUMN_LABELS[this.language][column].replace('{row}', this.row(key));
  }

  /** A dashboard figure of the case as a whole (runway, the MRR progress gauge). */
  dashboardScalar(scalar: DashboardScalar): string {
    return DASHBOARD_SCALAR_LABELS[this.language][scalar];
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
      const c = calendarOf(this.start.year, this.start.month, planMonthAt(year, Number(period)));
      if (this.language === 'ja') return `${c.year}年${c.month}月`;
      return `${MONTHS[c.month - 1]} ${c.year}`;
    }
    const y = this.language === 'ja' ? `${year}年目` : `Y${year}`;
    return period === 'cy' ? y : `${y} ${period.toUpperCase()}`;
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
