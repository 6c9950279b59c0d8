import { describe, expect, it } from 'vitest';
import { resetPasswordField, signupPasswordField } from './fields';
import { editorLimit, isTierLocked, lockedScreens, ownedPlanLimit } from './policy';
import { asOfMonth, currentPlanYear, trialDaysLeft } from './time';

describe('time rules (MODEL.md section 1)', () => {
  it('opens the plan year that holds the as-of month, counting from the start month', () => {
    // A plan starting 2024/04: year 1 is 2024/04..2025/03, year 2 is 2025/04..2026/03.
    expect(currentPlanYear(2024, 4, new Date('2026-02-15T12:00:00Z'))).toBe(2);
    expect(currentPlanYear(2024, 4, new Date('2026-04-01T00:00:00Z'))).toBe(3);
    expect(currentPlanYear(2024, 1, new Date('2024-12-31T23:59:59Z'))).toBe(1);
  });

  it('clamps to years 1 and 6', () => {
    expect(currentPlanYear(2030, 1, new Date('2026-02-15T00:00:00Z'))).toBe(1);
    expect(currentPlanYear(2018, 1, new Date('2026-02-15T00:00:00Z'))).toBe(6);
  });

  it('takes the month and the trial day in UTC, whatever the local zone', () => {
    // 23:30 UTC on 31 January is already February in Tokyo; the plan and the trial count by UTC.
    const late = new Date('2026-01-31T23:30:00Z');
    expect(asOfMonth(late)).toEqual({ year: 2026, month: 1 });
    expect(trialDaysLeft('2026-02-14', late)).toBe(14);
    expect(trialDaysLeft('2026-01-31', late)).toBe(0);
    expect(trialDaysLeft('2026-01-30', late)).toBe(-1);
    expect(trialDaysLeft(null, late)).toBeNull();
  });
});

describe('password rules (product-and-account.md section 5)', () => {
  it('admits the yen sign in a reset password only', () => {
    expect(signupPasswordField.safeParse('abc¥12345').success).toBe(false);
    expect(resetPasswordField.safeParse('abc¥12345').success).toBe(true);
    expect(signupPasswordField.safeParse('abc$12345').success).toBe(true);
    expect(signupPasswordField.safeParse('short1!').success).toBe(false);
    expect(resetPasswordField.safeParse('パスワード12345').success).toBe(false);
  });
});

describe('tiers (product-and-account.md section 9)', () => {
  it('limits owned plans and editors, and locks screens on Free', () => {
    expect([ownedPlanLimit('free'), ownedPlanLimit('basic'), ownedPlanLimit('team')]).toEqual([1, 2, 3]);
    expect([editorLimit('free'), editorLimit('basic'), editorLimit('team')]).toEqual([0, 0, 4]);
    expect(lockedScreens('free')).toEqual(['dashboard', 'monthly_pl', 'kpi', 'revenue', 'expenses']);
    expect(lockedScreens('basic')).toEqual([]);
    expect(isTierLocked('free', 'pl')).toBe(false);
    expect(isTierLocked('free', 'actuals')).toBe(true);
  });
});
