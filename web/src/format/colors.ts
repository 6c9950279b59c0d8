/** Chart colours (working-screens.md section 2) and the runway colour (section 9). */
import type { ColorSet } from '@topline/contract';

/** '#ABC', 'abc' and '#aabbcc' all become '#aabbcc'; anything else is null. */
export function normalizeHex(value: string): string | null {
  const digits = value.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{3}$/.test(digits)) return `#${[...digits].map((d) => d + d).join('')}`;
  if (/^[0-9a-f]{6}$/.test(digits)) return `#${digits}`;
  return null;
}

/** The 2nd and 3rd colour sets derived from the first: each a lighter mix with white. */
export function deriveColorSets(first: ColorSet): ColorSet[] {
  const mix = (hex: string, amount: number) => {
    const normal = normalizeHex(hex) ?? '#000000';
    const channel = (i: number) => {
      const v = Number.parseInt(normal.slice(i, i + 2), 16);
      return Math.round(v + (255 - v) * amount)
        .toString(16)
        .padStart(2, '0');
    };
    return `#${channel(1)}${channel(3)}${channel(5)}`;
  };
  const lighter = (amount: number): ColorSet => ({
    arr: mix(first.arr, amount),
    pl: mix(first.pl, amount),
    gross_profit: mix(first.gross_profit, amount),
  });
  return [first, lighter(0.35), lighter(0.65)];
}

/** Runway colour: 12 months or fewer red, 19 or more orange, otherwise teal (section 9). */
export function cashOutColor(months: number | null): 'red' | 'orange' | 'teal' | 'none' {
  if (months === null) return 'none';
  if (months <= 12) return 'red';
  if (months >= 19) return 'orange';
  return 'teal';
}
