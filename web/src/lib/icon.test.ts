import { describe, expect, it } from 'vitest';
import { acceptIcon } from './icon';

describe('plan icon upload', () => {
  it('takes JPEG and PNG up to 2,000,000 bytes and ignores anything else', () => {
    expect(acceptIcon({ type: 'image/png', size: 2_000_000 })).toBe(true);
    expect(acceptIcon({ type: 'image/jpeg', size: 10 })).toBe(true);
    expect(acceptIcon({ type: 'image/png', size: 2_000_001 })).toBe(false);
    expect(acceptIcon({ type: 'image/gif', size: 10 })).toBe(false);
    expect(acceptIcon(null)).toBe(false);
  });
});
