import { describe, expect, it } from 'vitest';
import { stillRefused } from './refused';

const issue = (path: string) => ({ path, message: 'out of bounds' });
const paths = (issues: { path: string }[]) => issues.map((i) => i.path);

describe('stillRefused', () => {
  const refused = [
    issue('arr'),
    issue('cases.0.years.1.churn_rate'),
    issue('cases.1.cash.3.other'),
    issue('cases.2.case_rate'),
  ];

  it('clears an input an edit sets again, and what lies under a value set whole', () => {
    expect(
      paths(stillRefused(refused, [{ type: 'year', caseIndex: 0, year: 1, key: 'churn_rate', value: 0.02 }])),
    ).toEqual(['arr', 'cases.1.cash.3.other', 'cases.2.case_rate']);
    expect(paths(stillRefused(refused, [{ type: 'cash', caseIndex: 1, month: 3, values: { other: null } }]))).toEqual([
      'arr',
      'cases.0.years.1.churn_rate',
      'cases.2.case_rate',
    ]);
    expect(paths(stillRefused(refused, [{ type: 'plan', values: { arr: 100_000_000 } }]))).not.toContain('arr');
  });

  it('drops a deleted case’s inputs and renumbers the cases after it', () => {
    expect(paths(stillRefused(refused, [{ type: 'deleteCase', caseIndex: 1 }]))).toEqual([
      'arr',
      'cases.0.years.1.churn_rate',
      'cases.1.case_rate',
    ]);
  });

  it('renumbers the cases after one added in their midst, and none for one added last', () => {
    const added = { case_name: 'Restored' };
    expect(paths(stillRefused(refused, [{ type: 'addCase', case: added, index: 1 }]))).toEqual([
      'arr',
      'cases.0.years.1.churn_rate',
      'cases.2.cash.3.other',
      'cases.3.case_rate',
    ]);
    expect(stillRefused(refused, [{ type: 'addCase', case: added }])).toEqual(refused);
  });
});
