/**
 * Plotly charts through react-plotly.js and the basic partial bundle (scatter, bar, pie), both loaded by a dynamic
 * import the first time a chart shows, so neither is in the shell's bundle.
 */
import { lazy, Suspense } from 'react';
import { chartLayout } from './layout';

export interface Trace {
  type: 'bar' | 'scatter' | 'pie';
  name?: string;
  x?: (string | number)[];
  y?: (number | null)[];
  values?: number[];
  labels?: string[];
  mode?: string;
  marker?: Record<string, unknown>;
  line?: Record<string, unknown>;
  yaxis?: string;
  fill?: string;
  hole?: number;
  text?: string[];
  textposition?: string;
  hovertemplate?: string;
}

export interface ChartProps {
  traces: Trace[];
  title?: string;
  height?: number;
  layout?: Record<string, unknown>;
  testId?: string;
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

export function Chart({ traces, title, height = 300, layout, testId }: ChartProps) {
  return (
    <div className="chart" data-test={testId} style={{ minHeight: height }}>
      <Suspense fallback={<div className="chart-loading" style={{ height }} />}>
        <Plot
          data={traces}
          layout={chartLayout({ traces, title, height, layout })}
          config={{ displayModeBar: false, responsive: true }}
          style={{ width: '100%' }}
          useResizeHandler
        />
      </Suspense>
    </div>
  );
}
