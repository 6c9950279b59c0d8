import { describe, expect, it } from 'vitest';
import { wrapIndex } from './VoicesCarousel';

// The voices themselves are the landing content's (LANDING_CONTENT), checked by the API at start:
// api/src/landingContent.test.ts.
describe('customer voice carousel', () => {
  it('wraps around at both ends', () => {
    expect(wrapIndex(0, -1, 10)).toBe(9);
    expect(wrapIndex(9, 1, 10)).toBe(0);
    expect(wrapIndex(4, 1, 10)).toBe(5);
  });
});
