/**
 * The revise preview on the actuals-revisions fixture (MODEL.md section 6, figures of actuals.test.ts): target ARR
 * 36,000,000 (estimate MRR_t = 250,000 t in Y1), six ACT months ending at MRR_6 = 1,000,000 (10 customers x 100,000),
 * recurring revenue 100 % so that revenue is MRR.
 */
import { describe, expect, it } from 'vitest';
import { EditError } from './edits';
import { revisionFigures, revisionPreviewSchema } from './read/revisionPreview';
import { revisionPreview } from './revise';
import { buildFixture, loadFixture } from './testing';
import { PlanWorkbook } from './workbook';

const AS_OF = { year: 2026, month: 11 };
const close = (actual: number | null | undefined, expected: number, digits = 4) =>
  expect(actual ?? Number.NaN).toBeCloseTo(expected, digits);

/** The fixture with its first case's revision taken away: its forecast is the estimate. */
function unrevised(): PlanWorkbook {
  const plan = loadFixture('actuals-revisions') as { cases: { revisions?: unknown }[] };
  const first = plan.cases[0];
  if (first) first.revisions = {};
  return PlanWorkbook.build(plan, { asOf: AS_OF });
}

describe('revise preview', () => {
  it('previews each pattern beside the forecast as it stands', () => {
    const wb = unrevised();
    const preview = revisionPreview(wb.plan, 0, 1, AS_OF);
    expect(revisionPreviewSchema.parse(preview)).toEqual(preview);
    expect(preview.from_month).toBe(6);
    expect(preview.current_pattern).toBeNull();
    // Unrevised, months 7..12 are the estimate: 250,000 x (7 + ... + 12) = 14,250,000; year end 3,000,000.
    close(preview.current.remaining_revenue, 14_250_000);
    close(preview.current.year_end_mrr, 3_000_000);
    // Upward: 1,000,000 + 2,000,000 (t - 6) / 6 over months 7..12 sums to 13,000,000, keeping ARR 36,000,000.
    close(preview.patterns.upward.year_end_mrr, 3_000_000);
    close(preview.patterns.upward.year_end_arr, 36_000_000);
    close(preview.patterns.upward.remaining_revenue, 13_000_000);
    close(preview.patterns.upward.revenue_change, -1_250_000);
    // Downward: the estimate x 1,000,000 / 1,500,000: 14,250,000 x 2/3 = 9,500,000; year end 2,000,000, ARR 24M.
    close(preview.patterns.downward.year_end_mrr, 2_000_000);
    close(preview.patterns.downward.year_end_arr, 24_000_000);
    close(preview.patterns.downward.remaining_revenue, 9_500_000);
    close(preview.patterns.downward.revenue_change, -4_750_000);
  });

  it('names the stored pattern, whose outcome is the forecast as it stands', () => {
    const preview = revisionPreview(buildFixture('actuals-revisions').plan, 1, 1, AS_OF);
    expect(preview.current_pattern).toBe('downward');
    expect(preview.patterns.downward).toEqual({ ...preview.current, revenue_change: 0 });
    // From the downward forecast (9,500,000) the upward one (13,000,000) adds 3,500,000.
    close(preview.patterns.upward.revenue_change, 3_500_000);
  });

  it('matches what applying the revision leaves, exactly, and leaves the workbook alone', () => {
    const wb = unrevised();
    const before = revisionFigures(wb, 0, 1, 6);
    const preview = revisionPreview(wb.plan, 0, 1, AS_OF);
    expect(revisionFigures(wb, 0, 1, 6)).toEqual(before);
    for (const pattern of ['downward', 'upward'] as const) {
      wb.apply({ type: 'revise', caseIndex: 0, year: 1, pattern });
      const { revenue_change: _, ...figures } = preview.patterns[pattern];
      expect(revisionFigures(wb, 0, 1, 6)).toEqual(figures);
    }
  });

  it('refuses a year without an actual month, as the save does', () => {
    const wb = buildFixture('actuals-revisions');
    expect(() => revisionPreview(wb.plan, 0, 2, AS_OF)).toThrow(EditError);
  });
});
