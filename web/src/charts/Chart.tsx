/**
 * Plotly charts through react-plotly.js and the basic partial bundle (scatter, bar, pie), both loaded by a dynamic
 * import the first time a chart shows, so neither is in the shell's bundle.
 */
import { lazy, Suspense } from 'react';
import { useCurrencySymbol } from '../grid/currency';
import { chartLayout } from './layout';
import type { Trace } from './trace';

export interface ChartProps {
  traces: Trace[];
  title?: string;
  height?: number;
  layout?: Record<string, unknown>;
  testId?: string;
  /** The figures are money: the vertical axis (`true`) or the axes named carry the plan's currency sign. */
  money?: boolean | readonly string[];
}

const Plot = lazy(async () => {
  const [factory, plotly] = await Promise.all([import('react-plotly.js/factory'), import('plotly.js-basic-dist-min')]);
  const create = (factory as unknown as { default: (p: unknown) => unknown }).default;
  const PlotComponent = create((plotly as { default?: unknown }).default ?? plotly) as React.ComponentType<{
    data: unknown[];
    layout: unknown;
    config: unknown;
    style: React.CSSProperties;
    useResizeHandler: boolean;
  }>;
  return { default: PlotComponent };
});

export function Chart({ traces, title, height = 300, layout, testId, money }: ChartProps) {
  const symbol = useCurrencySymbol();
  const moneyAxes = money === true ? ['yaxis'] : money ? money : [];
  return (
    <div className="chart" data-test={testId} style={{ minHeight: height }}>
      <Suspense fallback={<div className="chart-loading" style={{ height }} />}>
        <Plot
          data={traces}
          layout={chartLayout({ traces, title, height, layout, money: { symbol, axes: moneyAxes } })}
          config={{ displayModeBar: false, responsive: true }}
          style={{ width: '100%' }}
          useResizeHandler
        />
      </Suspense>
    </div>
  );
}
