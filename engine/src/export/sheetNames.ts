/**
 * The XLSX file's sheet names: a case's sheets carry the case's name (`Base case Estimate`, `Base case Actuals`) in
 * place of the workbook's `C1_` or `C1 ` prefix. Excel takes at most 31 characters, none of []:*?/\, no apostrophe at
 * either end, and no two names equal but for case; so the case's name is cut to fit beside the sheet's own word,
 * those characters become `_`, and a case whose name then equals an earlier one's gains ` (2)`, ` (3)`, …
 *
 * The names depend on the plan alone (a sheet's word comes after the last space, and no word holds one, so only
 * two cases' names can collide), so the import finds the case sheets of a file by the same names
 * (`xlsxRead.ts`). Formulas and defined names are rewritten to the new names (`renameSheets`).
 */
import type { PlanFile } from '../schema';
import { quoteSheet } from './references';

/** How every actual-inputs sheet's name ends, in the workbook (`C1 Actuals`) and in the XLSX file (`Base case Actuals`). */
export const ACTUAL_INPUTS_SHEET_ENDING = ' Actuals';

/** Excel's longest sheet name. */
export const SHEET_NAME_MAX = 31;

const FORBIDDEN = /[[\]:*?/\\]/g;
// Characters XML 1.0 cannot hold, and line breaks, which a tab cannot show.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is removed
const CONTROL = /[\u0000-\u001f\u007f\ufffe\uffff]/g;
/** A case sheet of the workbook: `C1_Estimate`, `C2 Actuals`. */
const CASE_SHEET = /^C(\d+)[_ ](\S+)$/;
/**
 * The hidden sheets only the export writes (`actMonths.ts`, `conditionalMonths.ts`) keep the workbook's names: no
 * one sees them, and their names say which case they serve.
 */
const HIDDEN_WORDS = new Set(['ActMonths', 'Actual_ACT', 'Actual_EST']);

/** The first `max` UTF-16 units of a text, never splitting a character. */
function cut(text: string, max: number): string {
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** A case's name as a sheet name may hold it: forbidden characters as `_`, no apostrophe first, trimmed. */
function cleanCaseName(name: string): string {
  return name.replace(CONTROL, '').replace(FORBIDDEN, '_').replace(/^'/, '_').trim();
}

/**
 * The names the XLSX file gives the sheets `names` of the workbook: each case sheet's new name by its workbook name;
 * other sheets (Plan, Topline) keep theirs and are left out.
 */
export function xlsxSheetNames(plan: PlanFile, names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  // Per sheet word, the names taken so far, lower case: cases are named in order, so the first keeps its name.
  const taken = new Map<string, Set<string>>();
  const caseSheets = names
    .map((name) => ({ name, match: CASE_SHEET.exec(name) }))
    .filter((s) => s.match && plan.cases[Number(s.match[1]) - 1] && !HIDDEN_WORDS.has(s.match[2] ?? ''));
  const words = [...new Set(caseSheets.map((s) => s.match?.[2] ?? ''))];
  for (const word of words) {
    const used = taken.get(word) ?? new Set<string>();
    taken.set(word, used);
    for (let i = 0; i < plan.cases.length; i++) {
      const label = caseLabel(cleanCaseName(plan.cases[i]?.case_name ?? ''), i, word, used);
      used.add(label.toLowerCase());
      out.set(`C${i + 1}${word === 'Actuals' ? ' ' : '_'}${word}`, `${label} ${word}`);
    }
  }
  return new Map([...out].filter(([from]) => names.includes(from)));
}

/** The workbook's name of a sheet the XLSX file names `title` (the title itself for a sheet not renamed). */
export function workbookSheetName(plan: PlanFile, title: string): string {
  const word = title.slice(title.lastIndexOf(' ') + 1);
  for (let i = 0; i < plan.cases.length; i++) {
    const name = `C${i + 1}${word === 'Actuals' ? ' ' : '_'}${word}`;
    if (title.includes(' ') && xlsxSheetName(plan, name) === title) return name;
  }
  return title;
}

/** The name the XLSX file gives the workbook's sheet `name` (for tests and readers that know the workbook). */
export function xlsxSheetName(plan: PlanFile, name: string): string {
  return xlsxSheetNames(plan, [name]).get(name) ?? name;
}

/** A case's part of a sheet name: its name cut to fit beside the word, numbered if an earlier case's is the same. */
function caseLabel(name: string, index: number, word: string, used: ReadonlySet<string>): string {
  const room = SHEET_NAME_MAX - 1 - word.length;
  const base = name === '' ? `C${index + 1}` : name;
  const first = cut(base, room).trim();
  if (!used.has(first.toLowerCase())) return first;
  for (let n = 2; ; n++) {
    const mark = ` (${n})`;
    const label = `${cut(base, room - mark.length).trim()}${mark}`;
    if (!used.has(label.toLowerCase())) return label;
  }
}

/** Per map of names, each sheet reference met so far (`'C1_Estimate'`, `C1_Estimate`) as it is renamed, with its `!`. */
const renamedReferences = new WeakMap<ReadonlyMap<string, string>, Map<string, string | null>>();

const BANG = 33; // !

/** Whether a character code is one of a bare sheet name's (`[\w.]`). */
function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 46
  );
}

/** Whether a character code can start a bare sheet name (`[A-Za-z_]`). */
function isNameStart(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/**
 * The position of the quote that closes the quoted text opening at `at` (`"` or `'`), or -1 when it is not closed. A
 * doubled quote inside is one quote of the text.
 */
function closingQuote(formula: string, at: number, quote: '"' | "'"): number {
  let i = at + 1;
  for (;;) {
    const close = formula.indexOf(quote, i);
    if (close < 0 || formula.charAt(close + 1) !== quote) return close;
    i = close + 2;
  }
}

/**
 * A formula (or a defined name's reference) with its sheet references renamed by `names`: a bare name (`C1_Estimate!`)
 * or a quoted one (`'C1 Actuals'!`, a doubled quote inside being one quote) before a `!`, outside string literals,
 * whose text is left alone. Formulas run to millions of characters in a plan's export, so the text is not scanned
 * character by character: the search jumps from one `!`, `"` or `'` to the next, and reads a bare name backwards from
 * its `!`.
 */
export function renameSheets(formula: string, names: ReadonlyMap<string, string>): string {
  // Most formulas of a sheet read only their own sheet: nothing to rename.
  if (names.size === 0 || !formula.includes('!')) return formula;
  let known = renamedReferences.get(names);
  if (!known) {
    known = new Map();
    renamedReferences.set(names, known);
  }
  let out = '';
  /** Where the text not yet copied to `out` starts. */
  let copied = 0;
  /** Where the search goes on: everything before it is read. */
  let from = 0;
  let double = formula.indexOf('"');
  let single = formula.indexOf("'");
  for (;;) {
    const bang = formula.indexOf('!', from);
    if (bang < 0) break;
    if (double >= 0 && double < from) double = formula.indexOf('"', from);
    if (single >= 0 && single < from) single = formula.indexOf("'", from);
    let start: number;
    let key: string;
    let sheet: string;
    if (double >= 0 && double < bang && (single < 0 || double < single)) {
      // A string literal: its text is left alone.
      // A quote that is never closed opens no literal.
      const close = closingQuote(formula, double, '"');
      from = close < 0 ? double + 1 : close + 1;
      continue;
    }
    if (single >= 0 && single < bang) {
      // A quoted sheet name, if its closing quote is followed by `!`.
      const close = closingQuote(formula, single, "'");
      if (close < 0 || close === single + 1 || formula.charCodeAt(close + 1) !== BANG) {
        from = single + 1;
        continue;
      }
      start = single;
      key = formula.slice(single, close + 1);
      sheet = key.slice(1, -1).replace(/''/g, "'");
      from = close + 2;
    } else {
      // A bare name: the run of name characters before the `!`, from its first letter or underscore.
      start = bang;
      while (start > from && isNameChar(formula.charCodeAt(start - 1))) start -= 1;
      while (start < bang && !isNameStart(formula.charCodeAt(start))) start += 1;
      from = bang + 1;
      if (start === bang) continue;
      key = formula.slice(start, bang);
      sheet = key;
    }
    let renamed = known.get(key);
    if (renamed === undefined) {
      const name = names.get(sheet);
      renamed = name === undefined ? null : `${quoteSheet(name)}!`;
      known.set(key, renamed);
    }
    if (renamed === null) continue;
    out += formula.slice(copied, start) + renamed;
    copied = from;
  }
  return copied === 0 ? formula : out + formula.slice(copied);
}

/**
 * The title of a case's actual-inputs sheet among `sheets`, given its workbook title (`C1 Actuals`): the XLSX file's
 * (`Base case Actuals`) where the file names its sheets after the cases, else the workbook's, which a Google Sheets
 * export and an older file use. A missing sheet is named as the file would name it.
 */
export function actualInputsSheetIn(
  plan: PlanFile,
  workbook: string,
  sheets: Readonly<Record<string, unknown>>,
): string {
  if (sheets[workbook] !== undefined) return workbook;
  const inFile = xlsxSheetName(plan, workbook);
  if (sheets[inFile] !== undefined) return inFile;
  return Object.keys(sheets).some((title) => workbookSheetName(plan, title) !== title) ? inFile : workbook;
}
