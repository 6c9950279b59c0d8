import { describe, expect, it } from 'vitest';
import { COMBINING_MARKS_MAX, multiLineText, nameField, singleLineText, unreadable } from './fields';

const name = nameField('case_name');
const memo = multiLineText('content', 2000, { required: false });
const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

const ZWSP = '\u200b';
const attacks: [string, string, RegExp][] = [
  ['only zero-width spaces', ZWSP.repeat(5), /case_name must hold a visible character/],
  ['zero-width spaces, joiners, word joiner and BOM', `${ZWSP}\u200c\u200d\u2060\ufeff`, /visible character/],
  ['a Hangul filler between spaces', ' \u3164 ', /visible character/],
  ['a carriage return and a line feed', 'Plan\r\nB', /case_name may not hold line breaks, tabs/],
  ['a line feed', 'Plan\nB', /line breaks/],
  ['a tab', 'Plan\tB', /tabs/],
  ['a C1 control', 'Plan\u0085B', /control characters/],
  ['an escape', 'Plan\u001b[31mB', /control characters/],
  ['a line separator', 'Plan\u2028B', /line breaks/],
  ['a right-to-left override', 'invoice\u202Efdp.exe', /may not hold characters that change the direction/],
  ['a left-to-right isolate', 'a\u2066b\u2069', /direction/],
  ['a right-to-left mark', 'a\u200fb', /direction/],
  ['49 combining marks on one letter', `Z${'\u0301\u0316\u0334'.repeat(16)}\u0301`, /more than 4 marks/],
];

describe('names and short texts', () => {
  it.each(attacks)('refuse %s, with a message naming the field', (_, text, expected) => {
    const result = name.safeParse(text);
    expect(result.success).toBe(false);
    expect(message(result)).toMatch(expected);
  });

  it.each([
    ['a Japanese name', '山田 太郎', '山田 太郎'],
    [
      'a company name with katakana and full-width letters',
      '株式会社トップライン ＡＢＣ',
      '株式会社トップライン ＡＢＣ',
    ],
    ['an accented name', 'José Müller-Lüdenscheidt', 'José Müller-Lüdenscheidt'],
    ['an emoji ZWJ sequence', '👩‍💻 Dev team', '👩‍💻 Dev team'],
    ['an emoji family with skin tones and a keycap', '👨🏽‍👩🏽‍👧 1️⃣ 🇯🇵 ❤️', '👨🏽‍👩🏽‍👧 1️⃣ 🇯🇵 ❤️'],
    ['a Persian name with a zero-width non-joiner', 'می‌خواهم', 'می‌خواهم'],
    ['Vietnamese with two marks on a letter', 'Nguyễn Thị Ánh', 'Nguyễn Thị Ánh'],
    ['Hindi with its vowel signs', 'अनुष्का शर्मा', 'अनुष्का शर्मा'],
    [
      'four marks on one letter (one that NFC does not compose)',
      `q${'\u0301'.repeat(COMBINING_MARKS_MAX)}`,
      `q${'\u0301'.repeat(COMBINING_MARKS_MAX)}`,
    ],
  ])('take %s', (_, text, stored) => {
    expect(name.parse(text)).toBe(stored);
  });

  it('are stored NFC-normalised and trimmed, and counted after normalising', () => {
    const decomposed = 'Cafe\u0301';
    expect(name.parse(` ${decomposed} `)).toBe('Caf\u00e9');
    expect(name.parse('\u30ab\u3099')).toBe('\u30ac');
    // Fifty letters with a combining accent are 100 code units typed, 50 characters stored.
    expect(name.parse('e\u0301'.repeat(50))).toBe('\u00e9'.repeat(50));
    expect(name.safeParse('e\u0301'.repeat(51)).success).toBe(false);
  });

  it('keeps the other rules: required, at most NAME_MAX, storable', () => {
    expect(message(name.safeParse('   '))).toBe('case_name is required');
    expect(message(name.safeParse('x'.repeat(51)))).toBe('case_name may not be greater than 50 characters');
    expect(message(name.safeParse('a\u0000b'))).toMatch(/cannot be stored|control characters/);
    expect(nameField('position', false).parse('')).toBe('');
    expect(singleLineText('text', 200).parse(' Call the bank ')).toBe('Call the bank');
  });
});

describe('texts of several lines', () => {
  it('take line feeds and keep the text as typed, NFC-normalised', () => {
    expect(memo.parse('Ask about Q3.\nThen\n\n  follow up. ')).toBe('Ask about Q3.\nThen\n\n  follow up. ');
    expect(memo.parse('Cafe\u0301\n')).toBe('Caf\u00e9\n');
    expect(memo.parse('')).toBe('');
    expect(memo.parse('\n\n')).toBe('\n\n');
  });

  it('refuse every other control, bidi controls, stacked marks and invisible characters alone', () => {
    for (const [text, expected] of [
      ['line\r\nbreak', /content may not hold tabs or control characters other than line breaks/],
      ['a\tb', /tabs/],
      ['\u202Etxt.exe', /direction/],
      [`Z${'\u0336'.repeat(49)}`, /more than 4 marks/],
      [`\n${ZWSP}${ZWSP}\n`, /visible character/],
    ] as const) {
      expect(message(memo.safeParse(text))).toMatch(expected);
    }
  });
});

describe('unreadable', () => {
  it('is null for readable text and names the problem otherwise', () => {
    expect(unreadable('Plan 2026', 'single')).toBeNull();
    expect(unreadable('a\nb', 'multi')).toBeNull();
    expect(unreadable('a\nb', 'single')).toMatch(/line breaks/);
    expect(unreadable(ZWSP, 'single')).toMatch(/visible/);
  });
});
