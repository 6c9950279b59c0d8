import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Chart } from '../../charts/Chart';

type Graph = Record<string, { actual: (number | null)[]; estimate: (number | null)[] } | number | null>;

const KPI_SERIES = ['session', 'lead', 'meeting', 'registration', 'order', 'churn', 'cumulative_customers'];
const PL_SERIES = ['arpa', 'mrr', 'arr', 'revenue', 'cumulative_revenue', 'ending_cash_balance'];

/** The KPI and P&L/cash-flow charts of the monthly P&L; defaults session and arpa (section 2). */
export const MonthlyCharts = memo(function MonthlyCharts({
  graph,
  months,
  template,
}: {
  graph: Graph;
  months: string[];
  template: string;
}) {
  const { t } = useTranslation();
  const [kpi, setKpi] = useState('session');
  const [pl, setPl] = useState('arpa');
  const available = (keys: string[]) =>
    keys
      .filter((k) => typeof graph[k] === 'object' && graph[k] !== null)
      .filter((k) => template === 'saas' || (k !== 'lead' && k !== 'meeting'));
  const chart = (key: string, choose: (k: string) => void, keys: string[], testId: string) => {
    const series = graph[key];
    const data = typeof series === 'object' && series !== null ? series : { actual: [], estimate: [] };
    return (
      <div className="ws-card">
        <select value={key} onChange={(e) => choose(e.target.value)} aria-label={t('ws.monthly.chartMetric')}>
          {available(keys).map((k) => (
            <option key={k} value={k}>
              {t(`ws.graph.${k}`)}
            </option>
          ))}
        </select>
        <Chart
          testId={testId}
          height={260}
          money={PL_SERIES.includes(key)}
          traces={[
            { type: 'bar', name: t('ws.common.actual'), x: months, y: data.actual, marker: { color: '#5b3fd1' } },
            {
              type: 'scatter',
              mode: 'lines+markers',
              name: t('ws.common.estimate'),
              x: months,
              y: data.estimate,
              line: { color: '#f2a93b' },
            },
          ]}
        />
      </div>
    );
  };
  return (
    <div className="ws-two">
      {chart(kpi, setKpi, KPI_SERIES, 'monthly-kpi-chart')}
      {chart(pl, setPl, PL_SERIES, 'monthly-pl-chart')}
    </div>
  );
});
