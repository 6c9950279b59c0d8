/**
 * Formulas more than one sheet writes, kept in one place so that every sheet computes them alike: a ratio whose parts
 * may be blank, and the burn multiple (months, quarters and years, dashboard averages).
 */

/**
 * a / b, blank where either is blank or b is zero. Spreadsheets disagree on "" in arithmetic (HyperFormula reads it
 * as 0, Excel as an error), so a blank part must give a blank result explicitly.
 */
export function safeRatio(a: string, b: string, suffix = ''): string {
  return `=IF(OR(${a}="",${b}=""),"",IFERROR(${a}/${b}${suffix},""))`;
}

/** The months a burn multiple covers, as references to the cells it is computed from. */
export interface BurnWindow {
  /** ARR at the window's last month. */
  arr: string;
  /** Operating income over the window, or its monthly average when `months` is given. */
  operatingIncome: string;
  /** The window's first month, and the ARR cell of a month before it. */
  first: number;
  arrAt: (t: number) => string;
  /** Set when `operatingIncome` is a monthly average over this many months. */
  months?: number;
}

/**
 * MODEL.md section 3: MAX(0, -operating income) / net new ARR, blank unless net new ARR > 0. Net new ARR is the ARR
 * at the window's end less the ARR just before its first month (none before month 1). The one formula of the
 * burn multiple: a month, a quarter or year (section 4) and a dashboard average differ only in their window.
 */
export function burnMultiple(w: BurnWindow): string {
  const before = w.first > 1 ? w.arrAt(w.first - 1) : '0';
  const burn = w.months === undefined ? `MAX(0,-${w.operatingIncome})` : `MAX(0,-${w.operatingIncome})*${w.months}`;
  return `=IF(${w.arr}-${before}>0,${burn}/(${w.arr}-${before}),"")`;
}
