import { columnLetter } from '../layout';

/** The cell or range a workbook-level name refers to, parsed from its expression (`=Plan!$B$4`). */
export interface NamedReference {
  sheet: string;
  /** 0-based, inclusive. */
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const REFERENCE = /^=?(?:'((?:[^']|'')+)'|([A-Za-z_][\w.]*))!\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/;

/** Parses a name's expression; undefined when it is not a plain cell or range reference on a sheet. */
export function parseReference(expression: string): NamedReference | undefined {
  const m = REFERENCE.exec(expression.trim());
  if (!m) return undefined;
  const [, quoted, bare, firstColumn = '', firstRow = '', lastColumn, lastRow] = m;
  const sheet = quoted !== undefined ? quoted.replace(/''/g, "'") : (bare ?? '');
  const top = Number(firstRow) - 1;
  const left = columnIndex(firstColumn);
  const bottom = lastRow !== undefined ? Number(lastRow) - 1 : top;
  const right = lastColumn !== undefined ? columnIndex(lastColumn) : left;
  return {
    sheet,
    top: Math.min(top, bottom),
    left: Math.min(left, right),
    bottom: Math.max(top, bottom),
    right: Math.max(left, right),
  };
}

/** 0-based index of column letters: A -> 0, AA -> 26. */
export function columnIndex(letters: string): number {
  return [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

/** A sheet title as formulas and ranges write it, quoted when it is not a plain name. */
export function quoteSheet(title: string): string {
  return /^[A-Za-z_][\w.]*$/.test(title) ? title : `'${title.replace(/'/g, "''")}'`;
}

/**
 * Text and quoted sheet names, which hold no reference, then a cell reference or one end of a range (`$B7`, the `D9`
 * of `B7:D9`, the `G6` of `C1_Estimate!G6`): letters and digits not part of a longer name, a function or a sheet name.
 */
const MOVABLE = /("(?:[^"]|"")*"|'(?:[^']|'')*')|(?<![\w.$])(\$?)([A-Z]{1,3})(\$?)(\d+)(?![\w(!])/g;

/**
 * A formula moved `rows` rows down and `columns` columns right, as a spreadsheet fills it: every relative row or
 * column of its references moves, every absolute one (`$`) stays. Without the leading '='.
 */
export function moveFormula(formula: string, rows: number, columns: number): string {
  if (rows === 0 && columns === 0) return formula;
  return formula.replace(MOVABLE, (match, skipped, dollarColumn, letters, dollarRow, digits) => {
    if (skipped !== undefined) return match;
    const column = dollarColumn ? letters : columnLetter(columnIndex(letters) + columns);
    const row = dollarRow ? digits : String(Number(digits) + rows);
    return `${dollarColumn}${column}${dollarRow}${row}`;
  });
}
