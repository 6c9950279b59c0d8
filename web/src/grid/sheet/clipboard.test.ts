import { describe, expect, it } from 'vitest';
import { blockHtml, blockTsv, parseHtmlTable, parseTsv, plainFigure, readClipboard } from './clipboard';

describe('clipboard blocks', () => {
  it('reads Excel text: tabs, CRLF, a trailing line end, quoted cells with tabs, quotes and line ends', () => {
    expect(parseTsv('1,234\t(5)\r\n▲7\t\r\n')).toEqual([
      ['1,234', '(5)'],
      ['▲7', ''],
    ]);
    expect(parseTsv('"a\tb"\t"say ""hi"""\n"two\nlines"\t3')).toEqual([
      ['a\tb', 'say "hi"'],
      ['two\nlines', '3'],
    ]);
    expect(parseTsv('５')).toEqual([['５']]);
    expect(parseTsv('')).toEqual([]);
  });

  it('reads the first table of Excel and Google Sheets HTML, with entities, spans and tags inside cells', () => {
    const excel =
      '<html><body><!--StartFragment--><table><col width=64><tr height=20><td class=xl65>1,234</td><td>&#9650;7</td></tr>' +
      '<tr><td colspan=2 style="x">a&amp;b</td><td><span>(3)</span></td></tr></table><!--EndFragment--></body></html>';
    expect(parseHtmlTable(excel)).toEqual([
      ['1,234', '▲7'],
      ['a&b', '', '(3)'],
    ]);
    const sheets =
      '<google-sheets-html-origin><table xmlns="http://www.w3.org/1999/xhtml"><tbody><tr><td>１２</td><td>&nbsp;-5</td></tr></tbody></table>';
    expect(parseHtmlTable(sheets)).toEqual([['１２', '-5']]);
    expect(parseHtmlTable('<p>no table</p>')).toBeNull();
  });

  it('prefers the text form and falls back to the HTML table', () => {
    expect(readClipboard('1\t2', '<table><tr><td>9</td></tr></table>')).toEqual([['1', '2']]);
    expect(readClipboard('', '<table><tr><td>9</td></tr></table>')).toEqual([['9']]);
  });

  it('writes figures plain (a minus, no separators) as TSV and HTML that read back the same', () => {
    expect(plainFigure('▲3,000')).toBe('-3000');
    expect(plainFigure('1,234.5')).toBe('1234.5');
    expect(plainFigure('12.5%')).toBe('12.5%');
    expect(plainFigure('COGS')).toBe('COGS');
    const block = [
      ['COGS', '-3000'],
      ['a\tb', 'x<y'],
    ];
    expect(blockTsv(block)).toBe('COGS\t-3000\r\n"a\tb"\tx<y');
    expect(parseTsv(blockTsv(block))).toEqual(block);
    // HTML folds white space, as a browser shows it.
    expect(parseHtmlTable(blockHtml(block))).toEqual([block[0], ['a b', 'x<y']]);
  });
});
