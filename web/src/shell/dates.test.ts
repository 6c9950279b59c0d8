import type { UserView } from '@topline/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openingYear, trialDaysShown } from './dates';

// The browser runs in Tokyo, nine hours ahead of UTC, so a count in local time would differ from the API's.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Tokyo';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const trial = (trialEnd: string, daysLeft: number | null = null): UserView['plan'] => ({
  plan: 'free',
  is_trial: true,
  trial_end: trialEnd,
  trial_days_left: daysLeft,
  owned_plan_limit: 1,
  can_create_plan: true,
});

describe('the plan year the shell opens at', () => {
  it('counts plan years from the start month, not the start year', () => {
    // A plan starting 2024/04 is in year 2 from 2025/04 to 2026/03.
    expect(openingYear({ start_year: 2024, start_month: 4 }, new Date('2026-02-15T12:00:00Z'))).toBe(2);
    expect(openingYear({ start_year: 2024, start_month: 4 }, new Date('2026-04-01T12:00:00Z'))).toBe(3);
  });

  it('clamps to year 1 before the start and to year 6 after the end', () => {
    expect(openingYear({ start_year: 2030, start_month: 1 }, new Date('2026-11-22T12:00:00Z'))).toBe(1);
    expect(openingYear({ start_year: 2010, start_month: 1 }, new Date('2026-11-22T12:00:00Z'))).toBe(6);
  });

  it('takes the month in UTC, as the API does', () => {
    // 2026-03-31 23:30 UTC is already April in Tokyo, but the API reads the plan at March.
    expect(openingYear({ start_year: 2024, start_month: 4 }, new Date('2026-03-31T23:30:00Z'))).toBe(2);
  });
});

describe('trial days left', () => {
  it("shows the API's count when the answer has one", () => {
    expect(trialDaysShown(trial('2026-12-01', 4), new Date('2026-11-22T12:00:00Z'))).toBe(4);
  });

  it('counts whole UTC days to the trial end otherwise, whatever the time of day in the browser', () => {
    expect(trialDaysShown(trial('2026-12-01'), new Date('2026-11-22T00:30:00Z'))).toBe(9);
    // 23:30 UTC is the next morning in Tokyo; the API still counts from 22 November.
    expect(trialDaysShown(trial('2026-12-01'), new Date('2026-11-22T23:30:00Z'))).toBe(9);
    expect(trialDaysShown(trial('2026-11-01'), new Date('2026-11-22T12:00:00Z'))).toBe(0);
  });

  it('shows no banner without a trial', () => {
    expect(trialDaysShown({ ...trial('2026-12-01'), is_trial: false }, new Date())).toBeNull();
  });
});
