import { describe, expect, it } from 'vitest';
import en from '../i18n/screens.en';
import ja from '../i18n/screens.ja';
import { CASE_RATE_RULE, readTyped, refusalMessage, ruleOf, type TypedResult, type TypedRule } from './typed';

const value = (raw: string, key: string) => {
  const result = readTyped(raw, ruleOf(key));
  return result.ok ? result.value : `refused:${result.problem}`;
};

/** A tiny translator over the screens' messages, so the test reads the words a user sees. */
const translator =
  (messages: unknown) =>
  (key: string, options: Record<string, unknown> = {}): string => {
    let node: unknown = messages;
    for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
    if (typeof node !== 'string') throw new Error(`no message ${key}`);
    return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name] ?? ''));
  };

const refused = (raw: string, rule: TypedRule) => readTyped(raw, rule) as Extract<TypedResult, { ok: false }>;

describe('reading a typed number', () => {
  it('reads plain numbers, thousands separators and full-width input as the number they write', () => {
    expect(value('12000', 'cogs')).toBe(12000);
    expect(value('12,000', 'cogs')).toBe(12000);
    expect(value('1,234,567.89', 'cogs')).toBe(1234567.89);
    expect(value('１２，０００', 'cogs')).toBe(12000);
    expect(value('１２０００', 'session')).toBe(12000);
    expect(value(' 42 ', 'meeting')).toBe(42);
    expect(value('３．５', 'cogs_rate')).toBe(0.035);
  });

  it('keeps a minus where a negative is allowed, in every way a keyboard types it', () => {
    expect(value('-5', 'other')).toBe(-5);
    expect(value('－５', 'other')).toBe(-5);
    expect(value('−1,500', 'equity_raised')).toBe(-1500);
    expect(value('▲250,000', 'cogs')).toBe(-250000);
    // Upselling may fall to -99%.
    expect(value('-20', 'upselling_rate')).toBe(-0.2);
  });

  it('refuses a minus where the field cannot be negative', () => {
    expect(value('-20', 'cogs_rate')).toBe('refused:negative');
    expect(value('-5', 'meeting')).toBe('refused:negative');
    expect(value('－５', 'session')).toBe('refused:negative');
    expect(value('-1', 'employees')).toBe('refused:negative');
  });

  it('refuses what is not a number instead of stripping it', () => {
    for (const raw of [
      '12abc',
      'abc',
      'ten',
      '1e20',
      '1,5',
      '1,50',
      '12,0000',
      '1.2.3',
      '--5',
      '5-',
      '0x10',
      '.5',
      '+',
    ])
      expect(value(raw, 'cogs'), raw).toBe('refused:format');
    expect(value('1e20', 'cogs_rate')).toBe('refused:format');
    expect(value('ten', 'cogs_rate')).toBe('refused:format');
  });

  it('reads percentages typed in percent as fractions, with the % sign or without', () => {
    expect(value('30', 'cogs_rate')).toBe(0.3);
    expect(value('2.3%', 'lead_rate')).toBe(0.023);
    expect(value('2.55', 'churn_rate')).toBe(0.0255);
    expect(value('1,000', 'cogs_rate')).toBe(10);
  });

  it('refuses more decimals than a field takes, and fractions of a count', () => {
    expect(value('2.55', 'cogs_rate')).toBe('refused:digits');
    expect(value('2.555', 'churn_rate')).toBe('refused:digits');
    expect(value('100.001', 'cogs')).toBe('refused:digits');
    expect(value('1.5', 'meeting')).toBe('refused:whole');
    // Trailing zeros add no digit.
    expect(value('3.0', 'meeting')).toBe(3);
    expect(value('2.50', 'cogs_rate')).toBe(0.025);
  });

  it('refuses values outside the bounds', () => {
    // Cost rates: 0, or 0.01% to 1,000%; funnel rates 0.01% to 100%; counts up to 1,000,000,000.
    expect(value('1001', 'cogs_rate')).toBe('refused:range');
    expect(value('0', 'cogs_rate')).toBe(0);
    expect(value('0', 'lead_rate')).toBe('refused:range');
    expect(value('100.1', 'lead_rate')).toBe('refused:range');
    expect(value('1,000,000,001', 'session')).toBe('refused:range');
    expect(value('1,000,000,000', 'session')).toBe(1e9);
    expect(value('13', 'upselling_month')).toBe('refused:range');
    expect(value('-100', 'upselling_rate')).toBe('refused:range');
  });

  it('clears with an empty cell', () => {
    expect(value('', 'cogs')).toBeNull();
    expect(value('   ', 'cogs_rate')).toBeNull();
  });
});

describe('the refusal in words', () => {
  it('says why and what the cell takes, in English', () => {
    const t = translator(en);
    expect(refusalMessage(refused('-20', ruleOf('cogs_rate')), ruleOf('cogs_rate'), t)).toBe(
      'This value cannot be negative: “-20”. Allowed: a percentage with at most 1 decimal place, from 0% to 1,000% (0, or at least 0.01% in size).',
    );
    expect(refusalMessage(refused('12abc', ruleOf('meeting')), ruleOf('meeting'), t)).toBe(
      'Not a number: “12abc”. Allowed: a whole number, from 0 to 1,000,000,000.',
    );
    expect(refusalMessage(refused('2.555', ruleOf('churn_rate')), ruleOf('churn_rate'), t)).toBe(
      'Too many decimals: “2.555”. Allowed: a percentage with at most 2 decimal places, from 0% to 100% (0, or at least 0.01% in size).',
    );
    expect(refusalMessage(refused('0', CASE_RATE_RULE), CASE_RATE_RULE, t)).toBe(
      'Out of range: “0”. Allowed: a number with at most 2 decimal places, above 0 and at most 99.99.',
    );
  });

  it('says why and what the cell takes, in Japanese', () => {
    const t = translator(ja);
    expect(refusalMessage(refused('1,5', ruleOf('meeting')), ruleOf('meeting'), t)).toBe(
      '数値ではありません:「1,5」。 入力できるのは0から1,000,000,000までの整数です。',
    );
    expect(refusalMessage(refused('-20', ruleOf('cogs_rate')), ruleOf('cogs_rate'), t)).toBe(
      'マイナスは入力できません:「-20」。 入力できるのは0%から1,000%までの小数第1位までのパーセントです(0、または絶対値0.01%以上)。',
    );
  });
});
