import { randomBytes } from 'node:crypto';
import { Refusal } from './http';
import {
  copyOf,
  type GridRange,
  key,
  newSheet,
  nextSheetId,
  type StandInCell,
  type StandInSpreadsheet,
  sheetProperties,
} from './spreadsheets';

/**
 * Sheets v4 spreadsheets.batchUpdate: addSheet, deleteSheet, updateSheetProperties, addNamedRange, deleteNamedRange,
 * updateCells and updateDimensionProperties, applied whole or not at all.
 */
export function batchUpdate(file: StandInSpreadsheet, requests: Record<string, unknown>[]): unknown[] {
  // Applied to a copy, kept only when every request succeeds, as Google applies a batch.
  const draft = copyOf(file);
  const replies = requests.map((request) => apply(draft, request));
  Object.assign(file, draft, { modified: new Date() });
  return replies;
}

function apply(file: StandInSpreadsheet, request: Record<string, unknown>): unknown {
  const [kind, body] = Object.entries(request)[0] ?? [];
  // biome-ignore lint/suspicious/noExplicitAny: a request is checked field by field below
  const b = body as any;
  const sheetById = (sheetId: unknown) => {
    const sheet = file.sheets.find((s) => s.sheetId === sheetId);
    if (!sheet) throw new Refusal(400, `No grid with id: ${String(sheetId)}`);
    return sheet;
  };
  switch (kind) {
    case 'addSheet': {
      const title = String(b?.properties?.title ?? `Sheet${file.sheets.length + 1}`);
      if (file.sheets.some((s) => s.title === title)) {
        throw new Refusal(400, `A sheet with the name "${title}" already exists. Please enter another name.`);
      }
      const sheet = newSheet(nextSheetId(file), title, file.sheets.length);
      file.sheets.push(sheet);
      return { addSheet: { properties: sheetProperties(sheet) } };
    }
    case 'deleteSheet': {
      const sheet = sheetById(b?.sheetId);
      if (file.sheets.length === 1) throw new Refusal(400, "You can't remove all the sheets in a document.");
      file.sheets = file.sheets.filter((s) => s !== sheet);
      file.namedRanges = file.namedRanges.filter((n) => n.range.sheetId !== sheet.sheetId);
      return {};
    }
    case 'updateSheetProperties': {
      const properties = b?.properties ?? {};
      const sheet = sheetById(properties.sheetId);
      const fields = String(b?.fields ?? '');
      if (fields.includes('title') && properties.title !== undefined) {
        if (file.sheets.some((s) => s !== sheet && s.title === properties.title)) {
          throw new Refusal(400, `A sheet with the name "${properties.title}" already exists.`);
        }
        sheet.title = String(properties.title);
      }
      if (fields.includes('hidden')) sheet.hidden = Boolean(properties.hidden);
      const grid = properties.gridProperties ?? {};
      for (const name of ['rowCount', 'columnCount', 'frozenRowCount', 'frozenColumnCount'] as const) {
        if (fields.includes(name) && typeof grid[name] === 'number') sheet[name] = grid[name];
      }
      return {};
    }
    case 'addNamedRange': {
      const named = b?.namedRange ?? {};
      if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(String(named.name ?? ''))) {
        throw new Refusal(400, `Invalid namedRange.name: ${String(named.name)}`);
      }
      if (file.namedRanges.some((n) => n.name.toLowerCase() === String(named.name).toLowerCase())) {
        throw new Refusal(400, `Invalid requests[0].addNamedRange: Named range "${named.name}" already exists.`);
      }
      sheetById(named.range?.sheetId);
      const namedRangeId = randomBytes(6).toString('hex');
      file.namedRanges.push({ namedRangeId, name: String(named.name), range: named.range as GridRange });
      return { addNamedRange: { namedRange: { ...named, namedRangeId } } };
    }
    case 'deleteNamedRange': {
      const before = file.namedRanges.length;
      file.namedRanges = file.namedRanges.filter((n) => n.namedRangeId !== b?.namedRangeId);
      if (file.namedRanges.length === before) throw new Refusal(400, `No named range with id ${b?.namedRangeId}`);
      return {};
    }
    case 'updateCells': {
      const sheet = sheetById(b?.start?.sheetId);
      const fields = String(b?.fields ?? '');
      const top = Number(b?.start?.rowIndex ?? 0);
      const left = Number(b?.start?.columnIndex ?? 0);
      (b?.rows ?? []).forEach((row: { values?: Record<string, unknown>[] }, r: number) => {
        (row.values ?? []).forEach((data, c) => {
          const at = key(top + r, left + c);
          const cell: StandInCell = { ...(sheet.cells.get(at) ?? { value: null }) };
          if (fields.includes('userEnteredValue')) {
            const entered = data.userEnteredValue as Record<string, unknown> | undefined;
            delete cell.formula;
            cell.value = null;
            if (entered && 'formulaValue' in entered) cell.formula = String(entered.formulaValue);
            else if (entered && 'numberValue' in entered) cell.value = Number(entered.numberValue);
            else if (entered && 'stringValue' in entered) cell.value = String(entered.stringValue);
            else if (entered && 'boolValue' in entered) cell.value = Boolean(entered.boolValue);
          }
          if (fields.includes('numberFormat')) {
            const format = (data.userEnteredFormat as { numberFormat?: StandInCell['numberFormat'] } | undefined)
              ?.numberFormat;
            if (format) cell.numberFormat = format;
            else delete cell.numberFormat;
          }
          if (cell.formula === undefined && cell.value === null && !cell.numberFormat) sheet.cells.delete(at);
          else sheet.cells.set(at, cell);
        });
      });
      return {};
    }
    case 'updateDimensionProperties': {
      const range = b?.range ?? {};
      const sheet = sheetById(range.sheetId);
      for (let c = Number(range.startIndex); c < Number(range.endIndex); c += 1) {
        sheet.columnWidths.set(c, Number(b?.properties?.pixelSize));
      }
      return {};
    }
    default:
      throw new Refusal(400, `Invalid JSON payload received. Unknown name "${String(kind)}"`);
  }
}
