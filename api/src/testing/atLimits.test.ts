import { describe, expect, it } from 'vitest';
import { timeAtLimits } from './atLimits';

describe('a plan at every limit', () => {
  // The XLSX writer's own cost is some four builds of the fixture already: the export is held to five times the
  // fixture's export, the build and the screens to five times the fixture's build.
  it('builds and answers its screens within 5x the three-case fixture’s build, and exports within 5x its export', async () => {
    const t = await timeAtLimits();
    console.info(
      `three cases ${t.base.toFixed(0)} ms; at every limit: build ${t.build.toFixed(0)} ms, screens ` +
        `${t.screens.toFixed(0)} ms, XLSX ${t.xlsx.toFixed(0)} ms (three cases ${t.baseXlsx.toFixed(0)} ms)`,
    );
    expect(t.build).toBeLessThanOrEqual(5 * t.base);
    expect(t.screens).toBeLessThanOrEqual(5 * t.base);
    expect(t.xlsx).toBeLessThanOrEqual(5 * t.baseXlsx);
  }, 300_000);
});
