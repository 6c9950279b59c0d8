import { describe, expect, it } from 'vitest';
import { summarise } from './summary';

describe('wizard summary', () => {
  it('takes customers and staff at the deadline and averages the funnel up to it', () => {
    const months = [
      { cumulative: 1.2, meeting: 4.5, lead: 12.4, session: 177, employees: 1 },
      { cumulative: 2.4, meeting: 4.5, lead: 12.6, session: 179, employees: 1 },
      { cumulative: 3.6, meeting: 5, lead: 13, session: 180, employees: 2 },
    ];
    expect(summarise(months, 2)).toEqual({
      customers: 3,
      meetings: 5,
      leads: 13,
      sessions: 178,
      registrations: 0,
      staff: 1,
    });
    expect(summarise(months, 3).staff).toBe(2);
  });
});
