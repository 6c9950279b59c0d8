import { describe, expect, it } from 'vitest';
import { explainAnswer } from './explain';

describe('the explain answer of a figure shown as a dash', () => {
  const answer = { label: 'Progress: Ending cash balance', value: -1.5e16, formula: 'x = a / b', inputs: [] };

  it('carries why the screens show a dash (engine/DECISIONS.md, "Residue") beside the workbook value', () => {
    expect(explainAnswer.parse({ ...answer, dash: 'zero_base' }).dash).toBe('zero_base');
    expect(explainAnswer.parse({ ...answer, value: 4.656612873077393e-10, shown: 0 }).shown).toBe(0);
  });

  it('refuses a reason it does not know', () => {
    expect(explainAnswer.safeParse({ ...answer, dash: 'other' }).success).toBe(false);
  });
});
