/** What reaching the target ARR takes, from the engine's estimate months 1..P (MODEL.md section 3). */
export interface WizardSummary {
  customers: number;
  meetings: number;
  leads: number;
  sessions: number;
  registrations: number;
  staff: number;
}

/** The plan inputs the summary depends on. */
export interface EngineInput {
  template: 'saas' | 'selfserve';
  currency: 'JPY' | 'USD';
  arr: number;
  period: number;
  arpa: number;
  start_year: number;
  start_month: number;
  model_name: string;
  model_rate: number[];
}

export type MonthRecord = Record<string, number | null | undefined>;

/**
 * Customers and staff at the deadline month P; meetings, leads, sessions and registrations as the monthly average
 * over months 1..P. Customers and counts round up, since a fraction of a customer still has to be won.
 */
export function summarise(months: readonly MonthRecord[], period: number): WizardSummary {
  const upTo = months.slice(0, Math.max(1, period));
  const last = upTo[upTo.length - 1] ?? {};
  const average = (key: string) => {
    const total = upTo.reduce((sum, month) => sum + (month[key] ?? 0), 0);
    return Math.ceil(total / upTo.length);
  };
  return {
    customers: Math.ceil(last.cumulative ?? 0),
    meetings: average('meeting'),
    leads: average('lead'),
    sessions: average('session'),
    registrations: average('registration'),
    staff: Math.ceil(last.employees ?? 0),
  };
}
