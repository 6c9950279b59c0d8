/**
 * Plotly charts through react-plotly.js and the basic partial bundle (scatter, bar, pie), both loaded by a dynamic
 * import the first time a chart shows, so neither is in the shell's bundle. A chart draws once the browser is idle
 * after the screen appeared: drawing takes tens of milliseconds of the main thread, and the screen's grid shows its
 * numbers first.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useCurrencySymbol } from '../grid/currency';
import { whenIdle } from '../lib/idle';
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

/** False until the browser has been idle once since the component mounted (at most a second). */
function useIdleOnce(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true), 1000), []);
  return idle;
}

export function Chart({ traces, title, height = 300, layout, testId, money }: ChartProps) {
  const symbol = useCurrencySymbol();
  const idle = useIdleOnce();
  const moneyAxes = money === true ? ['yaxis'] : money ? money : [];
  const waiting = <div className="chart-loading" style={{ height }} />;
  return (
    <div className="chart" data-test={testId} style={{ minHeight: height }}>
      {!idle ? (
        waiting
      ) : (
        <Suspense fallback={waiting}>
          <Plot
            data={traces}
            layout={chartLayout({ traces, title, height, layout, money: { symbol, axes: moneyAxes } })}
            config={{ displayModeBar: false, responsive: true }}
            style={{ width: '100%' }}
            useResizeHandler
          />
        </Suspense>
      )}
    </div>
  );
}
