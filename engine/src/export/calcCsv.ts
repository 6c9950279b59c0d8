/** Reading LibreOffice Calc's CSV of a recalculated export and comparing it with the engine's values (tests). */
import type { PlanWorkbook, Value } from '../workbook';

/**
 * A formula that only refers to an empty cell (`=C1_Estimate!B22`) shows blank in the engine (and Google Sheets) but 0
 * in Calc and Excel. Such cells are accepted here, and only these; anything computed from them already agrees, as the
 * other cells show.
 */
export function blankReference(wb: PlanWorkbook, sheet: string, row: number, column: number, calc: string): boolean {
  const content = wb.content(sheet, row, column);
  if (wb.value(sheet, row, column) !== null || (calc !== '0' && calc !== '0%') || typeof content !== 'string') {
    return false;
  }
  const ref = /^=(?:([A-Za-z_][\w.]*)!)?\$?([A-Z]+)\$?(\d+)$/.exec(content);
  if (!ref) return false;
  const [, target = sheet, letters = '', digits = ''] = ref;
  const targetColumn = [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  return wb.content(target, Number(digits) - 1, targetColumn) === null;
}

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (ch !== '\r') field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/**
 * Numbers agree within 1e-6 relative. Figures below 1e-6 in size are cancellation noise (revenue less costs that sum
 * to revenue): Calc snaps such a difference to 0 where the engine keeps a few ulps. Calc writes a percentage-formatted
 * cell as "12.5%" even when not writing "as shown".
 */
export function sameValue(engine: Value, calc: string): boolean {
  if (typeof engine !== 'number') return (engine ?? '') === calc;
  if (calc === '') return false;
  const got = calc.endsWith('%') ? Number(calc.slice(0, -1)) / 100 : Number(calc);
  if (Number.isNaN(got)) return false;
  if (Math.abs(engine) < 1e-6 && Math.abs(got) < 1e-6) return true;
  return Math.abs(got - engine) <= 1e-6 * Math.max(Math.abs(engine), Math.abs(got));
}
