/**
 * IF, IFERROR and OR as `patches/hyperformula+3.5.0.patch` evaluates them (`Interpreter.logicalCall`: IF evaluates
 * only the branch it answers, IFERROR its fallback only on an error, neither through the generic argument handling of
 * `FunctionPlugin.runFunction`) answer exactly what HyperFormula 3.5.0's generic path answers: for formulas at the
 * edges of their arguments (errors, text, empty arguments, ranges, arrays, wrong counts), before and after their
 * inputs change, in both of the package's builds; and for every cell of the fixture plans, built and then edited.
 *
 * The reference is the same HyperFormula with `logicalCall` answering undefined, which hands every call to the
 * generic path the patch leaves as it was.
 */
import type { HyperFormula as HyperFormulaType, RawCellContent } from 'hyperformula';
import { describe, expect, it } from 'vitest';
import type { PlanEdit } from './edits';
import { HYPERFORMULA_BUILDS, type HyperFormulaBuild, hyperformulaExport, loadFixture, seededRandom } from './testing';
import { PlanWorkbook } from './workbook';

interface InterpreterClass {
  prototype: { logicalCall?: (...args: unknown[]) => unknown };
}

/** Each build's HyperFormula and the Interpreter class it evaluates with. */
const load = async (build: HyperFormulaBuild) => ({
  HyperFormula: await hyperformulaExport<typeof HyperFormulaType>(build, 'index', 'HyperFormula'),
  Interpreter: await hyperformulaExport<InterpreterClass>(build, 'interpreter/Interpreter', 'Interpreter'),
});

/**
 * Runs `work` with every IF, IFERROR and OR of that build evaluated by the generic path (the reference), and counts
 * the calls the patched path answers otherwise.
 */
function paths(Interpreter: InterpreterClass) {
  const patched = Interpreter.prototype.logicalCall;
  if (typeof patched !== 'function') throw new Error('HyperFormula is not patched: no Interpreter.logicalCall');
  const counts = { answered: 0 };
  Interpreter.prototype.logicalCall = function counted(this: unknown, ...args: unknown[]) {
    const value = patched.apply(this, args);
    if (value !== undefined) counts.answered++;
    return value;
  };
  return {
    counts,
    generic<T>(work: () => T): T {
      const own = Interpreter.prototype.logicalCall;
      Interpreter.prototype.logicalCall = () => undefined;
      try {
        return work();
      } finally {
        Interpreter.prototype.logicalCall = own;
      }
    },
    restore() {
      Interpreter.prototype.logicalCall = patched;
    },
  };
}

// Inputs in A1:E3 (numbers, text, an empty cell, an error, booleans); formulas in column G, one per row.
const INPUTS: RawCellContent[][] = [
  [1, 'abc', null, '=1/0', true],
  [0, 'TRUE', '', '=NA()', false],
  [2.5, '', -3, 'x', '=DATE(2026,11,24)'],
];
const FORMULAS = [
  '=IF(TRUE(),1,1/0)',
  '=IF(FALSE(),1/0,2)',
  '=IF(1/0,1,2)',
  '=IF("abc",1,2)',
  '=IF("TRUE",1,2)',
  '=IF("",1,2)',
  '=IF(,1,2)',
  '=IF(TRUE(),,2)',
  '=IF(FALSE(),1)',
  '=IF(TRUE(),1)',
  '=IF(1)',
  '=IF(1,2,3,4)',
  '=IF(0.5,"yes","no")',
  '=IF(A1>1,TRUE(),FALSE())',
  '=IF(TRUE,1,2)',
  '=IF(A1,B1,C1)',
  '=IF(C1,1,2)',
  '=IF(B1,1,2)',
  '=IF(B2,A1,A2)',
  '=IF(D1,1,2)',
  '=IF(A2,D1,D2)',
  '=IF(E1,E3,0)',
  '=IF(A1,E3+0,0)',
  '=IF(TRUE(),1,A1:A3)',
  '=IF(TRUE(),A1:A3,1)',
  '=IF(FALSE(),1,B1:B3)',
  '=IF(A1:A3,1,2)',
  '=IF(A1:C1,1,2)',
  '=IF(TRUE(),1,{1,2})',
  '=IF(TRUE(),1,SUM(A1:A3))',
  '=IF(TRUE(),1,INDEX(A1:A3,2,1))',
  '=IF(TRUE(),1,INDEX(A1:B3,0,1))',
  '=IF(TRUE(),1,CHOOSE(1,A1:A3))',
  '=IF(TRUE(),1,TRANSPOSE(A1:C1))',
  '=IF(TRUE(),1,SEQUENCE(3))',
  '=IFERROR(1,CHOOSE(2,A1:A3,B1:B3))',
  '=IF(TRUE(),1,rate)',
  '=IF(FALSE(),1,rate)',
  '=IF(TRUE(),(A1+A3),-A2%)',
  '=IF(OR(A1="",B1=""),"",IFERROR(B1/A1,""))',
  '=IF(OR(C1="",C2=""),"",IFERROR(A1/A2,""))',
  '=IF(A1>0,IF(A2>0,1,IF(A3>2,3,4)),5)',
  '=IFERROR(1/0,"x")',
  '=IFERROR(1,1/0)',
  '=IFERROR(1/0,1/0)',
  '=IFERROR(D1,D2)',
  '=IFERROR(A1:A3,0)',
  '=IFERROR(1/0,A1:A3)',
  '=IFERROR(1,A1:A3)',
  '=IFERROR(1)',
  '=IFERROR(,5)',
  '=IFERROR(1/0,)',
  '=IFERROR(NA(),2)',
  '=IFERROR(C1,"empty")',
  '=IFERROR(E3,0)',
  '=IFERROR(A1/A2,rate)',
  '=OR(TRUE(),1/0)',
  '=OR(1/0,TRUE())',
  '=OR(FALSE(),"x")',
  '=OR("x",1/0)',
  '=OR(0,"")',
  '=OR(A1:A3)',
  '=OR(A2,A1:A3)',
  '=OR()',
  '=OR(,TRUE())',
  '=OR(,)',
  '=OR(1,0)',
  '=OR(C1)',
  '=OR(B2)',
  '=OR(D2,TRUE())',
  '=OR(A2=0,B1="abc")',
  '=SUM(IF(A1:A3>1,1,0))',
  '=ARRAYFORMULA(SUM(IF(A1:A3>1,A1:A3,0)))',
  '=ARRAYFORMULA(SUM(IFERROR(1/A1:A3,0)))',
  '=ARRAYFORMULA(OR(A1:A3>2))',
];

/** Every value, type and format of a sheet, errors as their type and message (what a reader of the cell sees). */
function snapshot(hf: HyperFormulaType, sheet: number) {
  const { height, width } = hf.getSheetDimensions(sheet);
  const cells: unknown[] = [];
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const address = { sheet, row, col };
      const value = hf.getCellValue(address);
      cells.push({
        address: `${row}:${col}`,
        value: typeof value === 'object' && value !== null ? { error: value.type, message: value.message } : value,
        type: hf.getCellValueDetailedType(address),
        format: hf.getCellValueFormat(address),
      });
    }
  }
  return cells;
}

describe.each(Object.entries(HYPERFORMULA_BUILDS))(
  'IF, IFERROR and OR evaluated without the generic path (%s)',
  (_name, build) => {
    it('answer what the generic path answers, for arguments at every edge and after their inputs change', async () => {
      const { HyperFormula, Interpreter } = await load(build);
      const run = paths(Interpreter);
      try {
        const rows = INPUTS.map((row, r) => [...row, null, FORMULAS[r] ?? null]);
        for (let r = INPUTS.length; r < FORMULAS.length; r++)
          rows.push([null, null, null, null, null, null, FORMULAS[r] ?? null]);
        const config = { licenseKey: 'gpl-v3' as const, dateFormats: [] as string[], timeFormats: [] as string[] };
        const named = [{ name: 'rate', expression: '=Sheet1!$A$1/4' }];
        const fast = HyperFormula.buildFromArray(rows, config, named);
        const reference = run.generic(() => HyperFormula.buildFromArray(rows, config, named));
        expect(snapshot(fast, 0)).toEqual(snapshot(reference, 0));
        // The patched path answered most of the calls: the comparison is not between two generic evaluations.
        expect(run.counts.answered).toBeGreaterThan(40);

        // The same formulas after their inputs change: every input cell to every kind of value, one at a time.
        const next = seededRandom(20261124);
        const kinds: RawCellContent[] = [0, 1, -2.5, 'abc', 'TRUE', '', null, '=1/0', '=NA()', true, false, "'=x"];
        for (let step = 0; step < 60; step++) {
          const address = { sheet: 0, row: Math.floor(next() * 3), col: Math.floor(next() * 5) };
          const content = kinds[Math.floor(next() * kinds.length)] ?? null;
          fast.setCellContents(address, content);
          run.generic(() => reference.setCellContents(address, content));
          expect(snapshot(fast, 0), `after ${JSON.stringify(content)} in ${address.row}:${address.col}`).toEqual(
            snapshot(reference, 0),
          );
        }
        fast.destroy();
        reference.destroy();
      } finally {
        run.restore();
      }
    });
  },
);

describe('IF, IFERROR and OR evaluated without the generic path, in the plans', () => {
  it('leave every cell of every fixture plan as the generic path computes it, built and after seeded edits', async () => {
    const { Interpreter } = await load(HYPERFORMULA_BUILDS['ES module build']);
    const run = paths(Interpreter);
    const asOf = { year: 2026, month: 11 };
    const next = seededRandom(20261125);
    const cashKeys = ['equity_raised', 'debt_raised', 'debt_payment', 'other'] as const;
    const actualKeys = ['session', 'lead', 'meeting', 'order', 'churn', 'arpa', 'cogs', 'sm', 'rd', 'ga'] as const;
    const yearKeys = ['churn_rate', 'cogs_rate'] as const;
    try {
      for (const fixture of ['saas-jpy-t2d3', 'selfserve-usd-custom', 'three-cases', 'actuals-revisions']) {
        const plan = loadFixture(fixture);
        const fast = PlanWorkbook.build(plan, { asOf });
        const reference = run.generic(() => PlanWorkbook.build(plan, { asOf }));
        const same = (when: string) => {
          for (const sheet of fast.sheetNames()) {
            expect(fast.sheetValues(sheet), `${fixture} ${sheet} ${when}`).toEqual(reference.sheetValues(sheet));
          }
          for (const { name } of fast.layout.names) {
            expect(fast.namedValue(name), `${fixture} ${name} ${when}`).toEqual(reference.namedValue(name));
          }
        };
        same('as built');
        for (let step = 0; step < 6; step++) {
          const caseIndex = Math.floor(next() * fast.plan.cases.length);
          const value = next() < 0.2 ? null : Math.round(next() * 100_000);
          const batch: PlanEdit[] = [
            {
              type: 'actual',
              caseIndex,
              month: 1 + Math.floor(next() * 14),
              values: { [actualKeys[step % actualKeys.length] ?? 'order']: value },
            },
            {
              type: 'cash',
              caseIndex,
              month: 1 + Math.floor(next() * 72),
              values: { [cashKeys[step % cashKeys.length] ?? 'other']: value },
            },
            {
              type: 'year',
              caseIndex,
              year: 1 + (step % 6),
              key: yearKeys[step % 2] ?? 'churn_rate',
              value: Math.round(next() * 90) / 1000,
            },
          ];
          fast.apply(batch);
          run.generic(() => reference.apply(batch));
          same(`after batch ${step + 1}`);
        }
        fast.destroy();
        reference.destroy();
      }
      expect(run.counts.answered).toBeGreaterThan(10_000);
    } finally {
      run.restore();
    }
  });
});
