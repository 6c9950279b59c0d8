import { type CellAddress, ExplainError } from './explainTypes';

/** A formula as explain reads it: its tokens, its references, and its text in words. */

export interface Token {
  kind: 'string' | 'ref' | 'function' | 'number' | 'name' | 'op' | 'space';
  text: string;
}

const TOKEN_PATTERNS: [Token['kind'], RegExp][] = [
  ['space', /\s+/y],
  ['string', /"(?:[^"]|"")*"/y],
  ['ref', /(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?(?![A-Za-z0-9_(])/y],
  ['function', /[A-Za-z][A-Za-z0-9.]*(?=\()/y],
  ['number', /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y],
  ['name', /[A-Za-z_][A-Za-z0-9_.]*/y],
  ['op', /<=|>=|<>|[-+*/^&=<>(),;:{}%]/y],
];

/** The tokens of a formula (its leading "=" is the first token). */
export function formulaTokens(formula: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  outer: while (at < formula.length) {
    for (const [kind, pattern] of TOKEN_PATTERNS) {
      pattern.lastIndex = at;
      const m = pattern.exec(formula);
      if (m && m[0].length > 0) {
        if (kind !== 'space') tokens.push({ kind, text: m[0] });
        at += m[0].length;
        continue outer;
      }
    }
    throw new ExplainError(`cannot read the formula ${formula}`);
  }
  return tokens;
}

const letterIndex = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;

/** The first and last cell of a reference token (the same cell for a single reference). */
export function parseRef(text: string, defaultSheet: string): { start: CellAddress; end: CellAddress } {
  const bang = text.lastIndexOf('!');
  const sheet =
    bang < 0
      ? defaultSheet
      : text
          .slice(0, bang)
          .replace(/^'(.*)'$/, '$1')
          .replace(/''/g, "'");
  const [from, to] = text.slice(bang + 1).split(':');
  const address = (a: string): CellAddress => {
    const m = /^\$?([A-Z]+)\$?(\d+)$/.exec(a);
    if (!m) throw new ExplainError(`cannot read the reference ${text}`);
    return { sheet, row: Number(m[2]) - 1, column: letterIndex(m[1] ?? 'A') };
  };
  const start = address(from ?? '');
  return { start, end: to ? address(to) : start };
}

const OPERATOR_WORDS: Record<string, string> = { '*': '×', '/': '÷', '<=': '≤', '>=': '≥', '<>': '≠' };

/**
 * The tokens (without the leading "=") in words. A ratio the workbook leaves blank when it cannot be computed
 * (`IFERROR(x,"")`, or the same behind a test for blank parts) reads as its ratio and a note.
 */
export function inWords(tokens: Token[], render: (token: Token) => string, blankNote: string): string {
  const guarded = unguard(tokens);
  const body = guarded ?? tokens;
  let out = '';
  let previous: Token | undefined;
  for (const token of body) {
    if (token.kind === 'op') {
      const unary =
        (token.text === '-' || token.text === '+') && (!previous || (previous.kind === 'op' && previous.text !== ')'));
      if (token.text === '(' || token.text === ')') out += token.text;
      else if (token.text === ',' || token.text === ';') out += ', ';
      else if (token.text === ':') out += '…';
      else if (unary) out += token.text;
      else out += ` ${OPERATOR_WORDS[token.text] ?? token.text} `;
    } else out += render(token);
    previous = token;
  }
  return guarded ? `${out}${blankNote}` : out;
}

/** The ratio inside `IFERROR(x,"")` or `IF(OR(...),"",IFERROR(x,""))`, or undefined. */
function unguard(tokens: Token[]): Token[] | undefined {
  const call = (from: number, name: string): Token[][] | undefined => {
    if (tokens[from]?.text.toUpperCase() !== name || tokens[from + 1]?.text !== '(') return undefined;
    const args: Token[][] = [[]];
    let depth = 0;
    for (let i = from + 2; i < tokens.length; i++) {
      const t = tokens[i] as Token;
      if (t.kind === 'op' && t.text === '(') depth++;
      if (t.kind === 'op' && t.text === ')') {
        if (depth === 0) return i === tokens.length - 1 ? args : undefined;
        depth--;
      }
      if (depth === 0 && t.kind === 'op' && t.text === ',') args.push([]);
      else args.at(-1)?.push(t);
    }
    return undefined;
  };
  const blank = (arg: Token[] | undefined) => arg?.length === 1 && arg[0]?.text === '""';
  const iferror = call(0, 'IFERROR');
  if (iferror?.length === 2 && blank(iferror[1])) return iferror[0];
  const guardedIf = call(0, 'IF');
  if (guardedIf?.length === 3 && blank(guardedIf[1])) {
    const inner = guardedIf[2] ?? [];
    if (inner[0]?.text.toUpperCase() === 'IFERROR') {
      const last = inner.at(-1);
      const innerArgs = last?.text === ')' && inner.at(-2)?.text === '""' && inner.at(-3)?.text === ',';
      if (innerArgs) return inner.slice(2, -3);
    }
  }
  return undefined;
}
