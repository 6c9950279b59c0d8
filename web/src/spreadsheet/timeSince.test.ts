import { describe, expect, it } from 'vitest';
import { timeSince } from './timeSince';

describe('time since the spreadsheet last changed', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('says it in English or Japanese, in the largest whole unit', () => {
    expect(timeSince('2026-11-23T11:59:40Z', 'en', now)).toBe('now');
    expect(timeSince('2026-11-23T11:57:00Z', 'en', now)).toBe('3 minutes ago');
    expect(timeSince('2026-11-23T09:30:00Z', 'en-US', now)).toBe('2 hours ago');
    expect(timeSince('2026-11-22T11:00:00Z', 'en', now)).toBe('yesterday');
    expect(timeSince('2026-11-23T11:57:00Z', 'ja', now)).toBe('3 分前');
    expect(timeSince('2026-11-20T12:00:00Z', 'ja-JP', now)).toBe('3 日前');
  });
});
