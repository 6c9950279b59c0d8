/**
 * Moving a formula as a spreadsheet fills it (`moveFormula`): the exports write a cell filled from a neighbour as
 * that neighbour's formula moved, and Google Sheets takes every cell's own text from it.
 */
import { describe, expect, it } from 'vitest';
import { moveFormula } from './references';

describe('moveFormula', () => {
  it('moves relative rows and columns and keeps absolute ones', () => {
    expect(moveFormula('B5*12', 1, 0)).toBe('B6*12');
    expect(moveFormula('B5*12', 0, 1)).toBe('C5*12');
    expect(moveFormula('$B5+B$5+$B$5', 2, 3)).toBe('$B7+E$5+$B$5');
    expect(moveFormula('Z1+AZ1', 0, 1)).toBe('AA1+BA1');
  });

  it('moves both ends of a range and references on other sheets', () => {
    expect(moveFormula('SUM(B6:D6)', 1, 0)).toBe('SUM(B7:D7)');
    expect(moveFormula('IF(C1_ActMonths!$B$2=1,C1_Actual!B6,"")', 1, 0)).toBe(
      'IF(C1_ActMonths!$B$2=1,C1_Actual!B7,"")',
    );
    expect(moveFormula("IF('C1 Actuals'!G7=\"\",C1_Estimate!G8,'C1 Actuals'!G7)", 0, 1)).toBe(
      "IF('C1 Actuals'!H7=\"\",C1_Estimate!H8,'C1 Actuals'!H7)",
    );
    expect(moveFormula('INDEX(C1_Actual!$A$6:$CY$6,1,B3)', 1, 0)).toBe('INDEX(C1_Actual!$A$6:$CY$6,1,B4)');
  });

  it('leaves text, sheet names, function names and defined names alone', () => {
    // A quoted sheet name and a string hold what reads like a reference; a name and a function hold letters and digits.
    expect(moveFormula('\'AB12 Q1\'!A1&"B2"&LOG10(B2)+cash_tolerance+C1_Estimate!B2', 1, 1)).toBe(
      '\'AB12 Q1\'!B2&"B2"&LOG10(C3)+cash_tolerance+C1_Estimate!C3',
    );
    expect(moveFormula('AB12!A1+"say ""A1"""', 1, 0)).toBe('AB12!A2+"say ""A1"""');
  });

  it('leaves a formula in place unchanged', () => {
    const formula = 'IF(OR(A1="",B1=""),"",A1-B1)';
    expect(moveFormula(formula, 0, 0)).toBe(formula);
  });
});
