/**
 * The Plotly layout of every chart. Money, counts and rates are read against zero: each vertical axis includes zero
 * (`rangemode: 'tozero'`), so a flat budget of 487.5 is drawn from 0 to about 500 instead of zooming into 486.5 to
 * 488.5, and a new plan's cash is drawn from 0 rather than from 2.4M. An axis with nothing to plot but zeros (up to
 * floating-point residue) or blanks spans 0 to 1 instead of Plotly's -1 to 1 (or 0 to 4 with no data at all).
 */
import type { Trace } from './trace';

export interface LayoutInput {
  traces: readonly Trace[];
  title?: string;
  height: number;
  /** The screen's own settings; an axis given here keeps the zero rule unless it sets its own range or rangemode. */
  layout?: Record<string, unknown>;
  /** Axes whose figures are money (`yaxis`, `yaxis2`), whose ticks carry the plan's currency sign. */
  money?: { symbol: string; axes: readonly string[] };
}

type Axis = Record<string, unknown>;

/** The layout key of the vertical axis a trace is drawn against: `y` -> yaxis, `y2` -> yaxis2. */
function axisKey(trace: Trace): string {
  const id = trace.yaxis ?? 'y';
  return `yaxis${id.slice(1)}`;
}

/** The vertical axes the traces use or the screen names. Pie charts have none. */
function verticalAxes(traces: readonly Trace[], layout: Record<string, unknown>): string[] {
  const keys = new Set(traces.filter((t) => t.type !== 'pie').map(axisKey));
  for (const key of Object.keys(layout)) if (/^yaxis\d*$/.test(key)) keys.add(key);
  return [...keys].sort();
}

/**
 * Below this size a plotted figure is floating-point residue (1e-12 of a plan whose cash is zero), not a figure: an
 * axis is never scaled on it, which Plotly would label 5p … 20p. The engine already sends money residue as 0
 * (engine/DECISIONS.md, "Residue"); the smallest real figure a chart plots, a rate of 0.01%, is far above it.
 */
export const CHART_RESIDUE = 1e-9;

/** Whether any trace on the axis has a value other than zero (up to residue) to plot. */
function hasFigures(traces: readonly Trace[], key: string): boolean {
  return traces.some(
    (t) =>
      t.type !== 'pie' &&
      axisKey(t) === key &&
      (t.y ?? []).some((v) => typeof v === 'number' && Math.abs(v) >= CHART_RESIDUE),
  );
}

/** A vertical axis with the zero rule, under the screen's own settings. */
export function zeroBasedAxis(own: Axis | undefined, figures: boolean): Axis {
  const base: Axis = figures
    ? { rangemode: 'tozero', autorange: true }
    : { rangemode: 'tozero', range: [0, 1], autorange: false };
  if (own && ('range' in own || 'rangemode' in own)) return { ...own };
  return { ...base, ...own };
}

export function chartLayout({ traces, title, height, layout = {}, money }: LayoutInput): Record<string, unknown> {
  const axes: Record<string, Axis> = {};
  for (const key of verticalAxes(traces, layout)) {
    axes[key] = zeroBasedAxis(layout[key] as Axis | undefined, hasFigures(traces, key));
    if (money?.axes.includes(key)) axes[key] = { tickprefix: money.symbol, ...axes[key] };
  }
  return {
    title: title ? { text: title, font: { size: 14 } } : undefined,
    height,
    autosize: true,
    margin: { l: 60, r: 20, t: title ? 40 : 16, b: 40 },
    legend: { orientation: 'h', y: -0.15 },
    barmode: 'group',
    paper_bgcolor: 'rgba(0,0,0,0)',
    plot_bgcolor: 'rgba(0,0,0,0)',
    separators: '.,',
    ...layout,
    ...axes,
  };
}
