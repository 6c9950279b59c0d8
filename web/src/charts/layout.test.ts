import { describe, expect, it } from 'vitest';
import { chartLayout } from './layout';
import type { Trace } from './trace';

const months = ['2026-04', '2026-05', '2026-06'];
const line = (y: (number | null)[], yaxis?: string): Trace => ({
  type: 'scatter',
  x: months,
  y,
  ...(yaxis ? { yaxis } : {}),
});

describe('chart layout', () => {
  it('starts a money axis at zero and keeps the screen title of the axis', () => {
    // A new plan's cash: 2.4M to 2.5M would zoom into noise; the axis includes zero instead.
    const layout = chartLayout({
      traces: [line([2_400_000, 2_450_000, 2_500_000])],
      height: 180,
      layout: { yaxis: { title: { text: 'Millions' } } },
    });
    expect(layout.yaxis).toEqual({ rangemode: 'tozero', autorange: true, title: { text: 'Millions' } });
    expect(layout.height).toBe(180);
  });

  it('starts the second axis of the KPI chart at zero as well', () => {
    const layout = chartLayout({
      traces: [{ type: 'bar', x: months, y: [340, 360, 380] }, line([2.46, 2.7, 3.0], 'y2')],
      height: 300,
      layout: { yaxis2: { overlaying: 'y', side: 'right' } },
    });
    expect(layout.yaxis).toEqual({ rangemode: 'tozero', autorange: true });
    expect(layout.yaxis2).toEqual({ rangemode: 'tozero', autorange: true, overlaying: 'y', side: 'right' });
  });

  it('draws an axis of zeros or blanks from 0 to 1', () => {
    // A cost group with no items: the items are zeros and the budget blank.
    const layout = chartLayout({ traces: [line([0, 0, 0]), line([null, null, null])], height: 300 });
    expect(layout.yaxis).toEqual({ rangemode: 'tozero', range: [0, 1], autorange: false });
  });

  it('draws an axis of floating-point residue as a zero line from 0 to 1, not on a scale of 5p to 20p', () => {
    // A plan whose cash is zero computes as 5e-12 to 2e-11 in places; a rate of 0.01% is a figure.
    const residue = chartLayout({ traces: [line([5e-12, -1e-11, 2e-11])], height: 180 });
    expect(residue.yaxis).toEqual({ rangemode: 'tozero', range: [0, 1], autorange: false });
    const smallRate = chartLayout({ traces: [line([0.0001, 0.0002, null])], height: 180 });
    expect(smallRate.yaxis).toEqual({ rangemode: 'tozero', autorange: true });
  });

  it('keeps negative figures in view with zero: operating losses, a negative balance', () => {
    const layout = chartLayout({ traces: [line([-5, -3, 0])], height: 300 });
    expect(layout.yaxis).toEqual({ rangemode: 'tozero', autorange: true });
  });

  it('leaves an axis alone where the screen sets its own range, and a pie without axes', () => {
    const own = chartLayout({ traces: [line([50, 60, 70])], height: 300, layout: { yaxis: { range: [40, 80] } } });
    expect(own.yaxis).toEqual({ range: [40, 80] });
    const pie = chartLayout({ traces: [{ type: 'pie', values: [1, 2], labels: ['a', 'b'] }], height: 300 });
    expect(pie.yaxis).toBeUndefined();
  });

  it('keeps the shared look: title, margins, legend, transparent background', () => {
    const layout = chartLayout({
      traces: [line([1, 2, 3])],
      title: 'Revenue',
      height: 260,
      layout: { barmode: 'stack' },
    });
    expect(layout.title).toEqual({ text: 'Revenue', font: { size: 14 } });
    expect(layout.margin).toEqual({ l: 60, r: 20, t: 40, b: 40 });
    expect(layout.barmode).toBe('stack');
    expect(layout.paper_bgcolor).toBe('rgba(0,0,0,0)');
  });

  it('puts the plan currency on the money axes only', () => {
    const traces = [line([1, 2, 3]), { ...line([4, 5, 6]), yaxis: 'y2' }];
    const layout = chartLayout({ traces, height: 300, money: { symbol: '¥', axes: ['yaxis'] } });
    expect((layout.yaxis as Record<string, unknown>).tickprefix).toBe('¥');
    expect((layout.yaxis2 as Record<string, unknown>).tickprefix).toBeUndefined();
    const dollars = chartLayout({ traces: [line([0, 0])], height: 300, money: { symbol: '$', axes: ['yaxis'] } });
    expect(dollars.yaxis).toEqual({ tickprefix: '$', rangemode: 'tozero', range: [0, 1], autorange: false });
  });
});
