/**
 * Explains a number of the plan: the formula HyperFormula holds for its cell, in words, and the value of every cell
 * and named input that formula reads (its precedents), each with where it comes from. Everything is read from the
 * plan's workbook; nothing here restates the model.
 */

import { yearOf } from './calendar';
import { ASSUMPTION_ROWS, assumptionRow, PLAN_NAMES, PLAN_SHEET, type PlanName } from './compile/assumptions';
import { VARIANCE_BLOCKS, varianceRow } from './compile/compare';
import { DASHBOARD_COLUMNS, DASHBOARD_SCALARS } from './compile/dashboard';
import type { CaseLayout, CompiledWorkbook } from './compile/index';
import { formulaTokens, inWords, parseRef, type Token } from './explainFormula';
import {
  ASSUMPTION_PREFIX,
  dashboardKey,
  type ExplainView,
  explainTarget,
  type PeriodOfYear,
  parseExplainPeriod,
} from './explainKeys';
import { ExplainWords } from './explainLabels';
import { shownDashboardFigure, shownFigure } from './explainShown';
import {
  type CellAddress,
  ExplainError,
  type ExplainedCell,
  type ExplainInput,
  type ExplainRequest,
  type ExplainSource,
  type Explanation,
} from './explainTypes';
import { ALL_PERIODS, a1, monthColumn, periodColumn, quarterColumn, yearColumn } from './layout';
import type { PlanWorkbook, Value } from './workbook';

export {
  type CellAddress,
  ExplainError,
  type ExplainedCell,
  type ExplainInput,
  type ExplainRequest,
  type ExplainSource,
  type ExplainView,
  type Explanation,
} from './explainTypes';

type SheetRole =
  | { kind: 'period'; layout: CaseLayout; view: ExplainView }
  | { kind: 'variance'; layout: CaseLayout }
  | { kind: 'dashboard'; layout: CaseLayout }
  | { kind: 'assumptions'; layout: CaseLayout }
  | { kind: 'daily'; layout: CaseLayout }
  | { kind: 'plan' };

interface Index {
  sheets: Map<string, SheetRole>;
  /** Input path of every recorded input cell, by `sheet!row!column`. */
  inputs: Map<string, string>;
}

const indexes = new WeakMap<CompiledWorkbook, Index>();
const cellKey = (c: CellAddress) => `${c.sheet}!${c.row}!${c.column}`;

function indexOf(compiled: CompiledWorkbook): Index {
  const cached = indexes.get(compiled);
  if (cached) return cached;
  const sheets = new Map<string, SheetRole>([[PLAN_SHEET, { kind: 'plan' }]]);
  for (const layout of compiled.cases) {
    sheets.set(layout.sheets.estimate, { kind: 'period', layout, view: 'estimate' });
    if (layout.sheets.actual) sheets.set(layout.sheets.actual, { kind: 'period', layout, view: 'actual' });
    if (layout.sheets.actualToDate) {
      sheets.set(layout.sheets.actualToDate, { kind: 'period', layout, view: 'actual_to_date' });
    }
    if (layout.sheets.estimateToDate) {
      sheets.set(layout.sheets.estimateToDate, { kind: 'period', layout, view: 'estimate_to_date' });
    }
    if (layout.sheets.variance) sheets.set(layout.sheets.variance, { kind: 'variance', layout });
    sheets.set(layout.sheets.dashboard, { kind: 'dashboard', layout });
    sheets.set(layout.sheets.assumptions, { kind: 'assumptions', layout });
    if (layout.sheets.daily) sheets.set(layout.sheets.daily, { kind: 'daily', layout });
  }
  const inputs = new Map<string, string>();
  for (const [path, cells] of compiled.inputCells) for (const cell of cells) inputs.set(cellKey(cell), path);
  const index = { sheets, inputs };
  indexes.set(compiled, index);
  return index;
}

/** Year and period text of every period column. */
const COLUMN_PERIODS = new Map<number, { year: number; period: string }>(
  ALL_PERIODS.map((p) => [
    periodColumn(p),
    { year: p.year, period: p.kind === 'month' ? String(p.month) : p.kind === 'quarter' ? `q${p.quarter}` : 'cy' },
  ]),
);

const columnOf = (p: PeriodOfYear) =>
  p.kind === 'month' ? monthColumn(p.t) : p.kind === 'quarter' ? quarterColumn(p.year, p.quarter) : yearColumn(p.year);

/** Plan inputs the user sets (the rest are the model's constants). */
const STORED_PLAN_NAMES = new Set<string>([
  'template',
  'currency',
  'target_arr',
  'period',
  'plan_arpa',
  'start_year',
  'start_month',
]);

/**
 * The explanation of one number: a row of a case's view (the estimate, the actual view, the comparison of the ACT
 * months or one of its sides) in a period of a plan year, a per-year assumption (`assumption.<key>`, any period), or
 * a figure of the case's dashboard (`dashboard.<column>.<row>`, `dashboard.<scalar>`, any period).
 * @throws {ExplainError} for a key, period or case the plan does not have
 */
export function explain(wb: PlanWorkbook, request: ExplainRequest): Explanation {
  return explainCell(wb, request).explanation;
}

/** `explain` with the cell it read and the way back from a cell of the formula to its input. */
export function explainCell(wb: PlanWorkbook, request: ExplainRequest): ExplainedCell {
  const compiled = wb.layout;
  const layout = compiled.cases[request.caseIndex];
  if (!layout) throw new ExplainError(`the plan has no case ${request.caseIndex}`);
  const target = explainTarget(request.key);
  if (!target) throw new ExplainError(`nothing to explain under ${request.key}`);
  const period = parseExplainPeriod(request.year, request.period);
  if (!period) throw new ExplainError(`no period ${request.period} in year ${request.year}`);
  const view = request.view ?? 'estimate';
  const words = new ExplainWords(request.language ?? 'en', wb.plan.template, {
    year: wb.plan.start_year,
    month: wb.plan.start_month,
  });
  const index = indexOf(compiled);

  let cell: CellAddress;
  let label: string;
  // The period an input is read in without saying so (none for a dashboard figure: each input names its month).
  let asked: { year: number; period: string };
  const noTemplateRow = () => new ExplainError(`the ${wb.plan.template} template has no ${request.key}`);
  if (target.kind === 'assumption') {
    cell = { sheet: layout.sheets.assumptions, row: assumptionRow(target.key), column: period.year };
    label = words.assumption(target.key);
    asked = { year: period.year, period: 'cy' };
  } else if (target.kind === 'dashboard') {
    const row = layout.dashboard.metricRow[target.row];
    if (row === undefined) throw noTemplateRow();
    cell = { sheet: layout.sheets.dashboard, row, column: layout.dashboard.column[target.column] };
    label = words.dashboard(target.column, target.row);
    asked = { year: 0, period: '' };
  } else if (target.kind === 'dashboardScalar') {
    cell = { sheet: layout.sheets.dashboard, row: layout.dashboard.scalarRow[target.scalar], column: 1 };
    label = words.dashboardScalar(target.scalar);
    asked = { year: 0, period: '' };
  } else {
    const row = layout.rowOf[target.row];
    if (row === undefined) throw noTemplateRow();
    const column = columnOf(period);
    label = words.viewRow(view, target.row);
    asked = { year: period.year, period: request.period };
    if ((VARIANCE_BLOCKS as readonly string[]).includes(view)) {
      if (!layout.sheets.variance) throw new ExplainError('the case has no actual months to compare');
      if (!layout.varianceRows.some((r) => r.key === target.row))
        throw new ExplainError(`no comparison of ${request.key}`);
      const block = view as (typeof VARIANCE_BLOCKS)[number];
      cell = { sheet: layout.sheets.variance, row: varianceRow(layout.varianceRows, block, target.row), column };
    } else if (view === 'actual_to_date' || view === 'estimate_to_date') {
      const sheet = view === 'actual_to_date' ? layout.sheets.actualToDate : layout.sheets.estimateToDate;
      if (!sheet) throw new ExplainError('the case has no actual months to compare');
      cell = { sheet, row, column };
    } else {
      const sheet = view === 'actual' ? (layout.sheets.actual ?? layout.sheets.estimate) : layout.sheets.estimate;
      cell = { sheet, row, column };
      // A month the actual view takes from the plan as it is: its explanation is the plan's.
      const passThrough = `=${a1(row, column, layout.sheets.estimate)}`;
      if (sheet !== layout.sheets.estimate && wb.content(sheet, row, column) === passThrough) {
        cell = { sheet: layout.sheets.estimate, row, column };
      }
    }
  }
  // The view of the sheet explained: an input read in another view says which. The comparison and the dashboard
  // read other sheets only, so each of their inputs names its view.
  const explainedRole = index.sheets.get(cell.sheet);
  const explainedView: ExplainView | undefined =
    explainedRole?.kind === 'period'
      ? explainedRole.view
      : explainedRole?.kind === 'variance' || explainedRole?.kind === 'dashboard'
        ? undefined
        : 'estimate';

  const describe = (c: CellAddress): ExplainInput => {
    const role = index.sheets.get(c.sheet);
    const value = wb.value(c.sheet, c.row, c.column);
    const content = wb.content(c.sheet, c.row, c.column);
    const isFormula = typeof content === 'string' && content.startsWith('=');
    const suffix = (parts: (string | undefined)[]) => {
      const shown = parts.filter((p): p is string => Boolean(p));
      return shown.length > 0 ? ` (${shown.join(', ')})` : '';
    };
    if (role?.kind === 'period') {
      const key = Object.keys(role.layout.rowOf).find((k) => role.layout.rowOf[k] === c.row) ?? '';
      const at = COLUMN_PERIODS.get(c.column) ?? { year: asked.year, period: 'cy' };
      const other = at.year !== asked.year || at.period !== asked.period;
      const otherView = role.view !== explainedView ? role.view : undefined;
      const path = index.inputs.get(cellKey(c));
      const stored = path !== undefined && storedInput(wb, path);
      const source: ExplainSource = stored
        ? path.split('/')[1] === 'cash'
          ? 'cash input'
          : 'actual'
        : isFormula
          ? 'formula'
          : 'default';
      return {
        label: `${words.row(key)}${suffix([otherView ? words.viewNote(otherView) : undefined, other ? words.period(at.year, at.period) : undefined])}`,
        key,
        year: at.year,
        period: at.period,
        value,
        source,
        explainable: isFormula,
        ...(otherView ? { view: otherView } : {}),
      };
    }
    if (role?.kind === 'dashboard') return dashboardInput(role.layout, c, value, isFormula);
    if (role?.kind === 'assumptions') {
      const key = ASSUMPTION_ROWS[c.row - 1]?.key ?? '';
      const caseInput = key === 'case_rate' || key === 'growth_multiple';
      const stored = caseInput
        ? content !== null
        : key in (wb.plan.cases[role.layout.index]?.years[String(c.column)] ?? {});
      return {
        label: `${words.assumption(key)}${suffix([c.column !== asked.year ? words.period(c.column, 'cy') : undefined])}`,
        key: `${ASSUMPTION_PREFIX}${key}`,
        year: c.column,
        period: 'cy',
        value,
        source: stored ? 'assumption' : 'default',
        explainable: isFormula,
      };
    }
    if (role?.kind === 'daily') {
      const metric = String(wb.content(c.sheet, 0, c.column) ?? '');
      const t = Number(wb.content(c.sheet, c.row, 1));
      const date = String(wb.content(c.sheet, c.row, 0) ?? '');
      return {
        label: `${words.daily(metric)} (${date})`,
        key: `daily.${metric}`,
        year: yearOf(t),
        period: String(t - 12 * (yearOf(t) - 1)),
        value,
        source: 'actual',
        explainable: false,
      };
    }
    const name = PLAN_NAMES[c.row - 1] ?? 'template';
    return planInput(name, value);
  };
  // A figure of the dashboard read by another (a rate recomputed from the averages, the gauge from its goal).
  const dashboardInput = (layout: CaseLayout, c: CellAddress, value: Value, isFormula: boolean): ExplainInput => {
    const d = layout.dashboard;
    const scalar = DASHBOARD_SCALARS.find((s) => d.scalarRow[s] === c.row);
    const column = DASHBOARD_COLUMNS.find((col) => d.column[col] === c.column);
    const row = Object.keys(d.metricRow).find((k) => d.metricRow[k] === c.row);
    const key = scalar ? dashboardKey(scalar) : dashboardKey(column ?? 'latest_value', row ?? '');
    return {
      label: scalar ? words.dashboardScalar(scalar) : words.dashboard(column ?? 'latest_value', row ?? ''),
      key,
      year: period.year,
      period: request.period,
      value,
      // The latest actual month is the one number of the sheet that is not a formula: the last month with actuals.
      source: isFormula ? 'formula' : scalar === 'latest_actual_month' && value !== null ? 'actual' : 'default',
      explainable: isFormula,
    };
  };
  const planInput = (name: PlanName, value: Value): ExplainInput => ({
    label: words.plan(name),
    key: `plan.${name}`,
    year: null,
    period: null,
    value,
    source: STORED_PLAN_NAMES.has(name) ? 'assumption' : 'default',
    explainable: false,
  });

  const { formula: expression, cells } = wb.precedents(cell.sheet, cell.row, cell.column);
  const byCell = new Map<string, ExplainInput>();
  const byName = new Map<string, ExplainInput>();
  const inputs: ExplainInput[] = [];
  for (const group of cells) {
    for (const c of group) {
      const k = cellKey(c);
      if (byCell.has(k)) continue;
      const input = describe(c);
      byCell.set(k, input);
      inputs.push(input);
    }
  }
  const tokens = expression ? formulaTokens(expression) : [];
  for (const token of tokens) {
    if (token.kind !== 'name' || byName.has(token.text)) continue;
    const caseRate = /^case(\d+)_rate$/.exec(token.text);
    let input: ExplainInput | undefined;
    if (caseRate) {
      const other = compiled.cases[Number(caseRate[1]) - 1];
      if (other) input = describe({ sheet: other.sheets.assumptions, row: assumptionRow('case_rate'), column: 1 });
    } else if ((PLAN_NAMES as readonly string[]).includes(token.text)) {
      input = planInput(token.text as PlanName, wb.namedValue(token.text));
    }
    if (!input) continue;
    byName.set(token.text, input);
    inputs.push(input);
  }

  const value = wb.value(cell.sheet, cell.row, cell.column);
  const render = (token: Token): string => {
    if (token.kind === 'ref') {
      const range = parseRef(token.text, cell.sheet);
      const first = byCell.get(cellKey(range.start));
      const last = byCell.get(cellKey(range.end));
      if (!first) return token.text;
      if (!last || last === first) return first.label;
      return `${first.label} … ${last.label}`;
    }
    if (token.kind === 'name') return byName.get(token.text)?.label ?? token.text;
    if (token.kind === 'function') return words.fn(token.text);
    if (token.kind === 'string') return token.text === '""' ? words.phrases.blank : token.text;
    return token.text;
  };
  const formula = expression
    ? `${label} = ${inWords(tokens.slice(1), render, words.phrases.blankNote)}`
    : `${label} = ${value === null ? words.phrases.blank : String(value)}`;
  const shown =
    target.kind === 'row'
      ? shownFigure(wb, request.caseIndex, period, view, target.row, value)
      : target.kind === 'dashboard' || target.kind === 'dashboardScalar'
        ? shownDashboardFigure(wb, request.caseIndex, target, value)
        : {};
  return {
    explanation: { label, value, ...shown, formula, inputs },
    cell,
    expression,
    inputAt: (c) => byCell.get(cellKey(c)),
    inputNamed: (name) => byName.get(name),
  };
}

/** Whether the plan stores the monthly input of a path (`0/cash/5/other`, `1/actuals/3/cogs`). */
function storedInput(wb: PlanWorkbook, path: string): boolean {
  const [caseIndex, group, t, key] = path.split('/');
  const c = wb.plan.cases[Number(caseIndex)];
  if (!c || !key || !t) return false;
  const record = (group === 'cash' ? c.cash[t] : c.actuals[t]) as Record<string, unknown> | undefined;
  return record?.[key] !== undefined;
}
