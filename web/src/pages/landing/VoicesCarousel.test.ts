import { describe, expect, it } from 'vitest';
import { VOICES, wrapIndex } from './VoicesCarousel';

describe('customer voice carousel', () => {
  it('holds 10 testimonials with a quote in both languages', () => {
    expect(VOICES).toHaveLength(10);
    for (const voice of VOICES) {
      expect(voice.quote.ja.length).toBeGreaterThan(0);
      expect(voice.quote.en.length).toBeGreaterThan(0);
      expect(voice.company.length).toBeGreaterThan(0);
    }
  });

  it('wraps around at both ends', () => {
    expect(wrapIndex(0, -1, 10)).toBe(9);
    expect(wrapIndex(9, 1, 10)).toBe(0);
    expect(wrapIndex(4, 1, 10)).toBe(5);
  });
});
