/**
 * LibreOffice Calc recalculating exported files (tests): the conversion of XLSX files to CSV, and reading its CSV and
 * comparing it with the engine's values.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PlanWorkbook, Value } from '../workbook';

/** LibreOffice's `soffice`, where Debian installs it; undefined when it is not installed. */
export const SOFFICE = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((p) => existsSync(p));

/**
 * Converts XLSX files to CSV in one run of Calc, one file per sheet (`<name>-<sheet>.csv` in `dir`), with full
 * precision rather than as shown. A run starts Calc once (about 4 s here), and each file is then read, recalculated and
 * written (about 2 s for a plan with actuals), so files are converted together. A fresh profile in `dir` that always
 * recalculates OOXML files on load keeps the run independent of the machine's settings.
 */
export async function convertToCsv(dir: string, inputs: string[]): Promise<void> {
  const profile = join(dir, 'profile');
  await mkdir(join(profile, 'user'), { recursive: true });
  await writeFile(
    join(profile, 'user', 'registrymodifications.xcu'),
    `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`,
  );
  // Tokens: comma, double quote, UTF-8, from line 1, default cell formats, en-US, ..., not "as shown", all sheets.
  const filter = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false,-1';
  await promisify(execFile)(
    SOFFICE ?? 'soffice',
    [
      `-env:UserInstallation=file://${profile}`,
      '--headless',
      '--norestore',
      '--convert-to',
      filter,
      '--outdir',
      dir,
      ...inputs,
    ],
    { timeout: 180_000 },
  );
}

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
