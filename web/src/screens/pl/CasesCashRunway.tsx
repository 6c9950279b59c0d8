import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { Chart } from '../../charts/Chart';
import { caseLabel } from '../../plan/caseNames';
import { type CompareAnswer, compareTraces } from './compareModel';
import '../../styles/screens/compare.css';

/**
 * Every case's ending cash by plan year and its runway, together (issue 40), from the engine's comparison
 * (`GET /pl/compare`). A caller who may not read the P&L sees nothing here rather than an error.
 */
export function CasesCashRunway({ planId }: { planId: number }) {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<CompareAnswer | null>(null);
  useEffect(() => {
    let current = true;
    api
      .get('/pl/compare', { query: { business_plan_id: planId }, quiet: true })
      .then((response) => current && setAnswer(response.data))
      .catch(() => current && setAnswer(null));
    return () => {
      current = false;
    };
  }, [planId]);
  if (!answer) return null;
  const label = (name: string) => caseLabel(name, t);
  const years = [1, 2, 3, 4, 5, 6].map((y) => t('ws.common.yearN', { n: y }));
  return (
    <div className="ws-card" data-test="cases-cash">
      <h3>{t('ws.compare.casesCash')}</h3>
      <ul className="ws-cases-runway">
        {answer.cases.map((c) => (
          <li key={c.case_id} data-test="case-runway">
            <strong>{label(c.case_name)}</strong>{' '}
            {c.forecast_monthes === null
              ? t('ws.compare.noCashOut')
              : t('ws.compare.runwayMonths', { months: c.forecast_monthes })}
          </li>
        ))}
      </ul>
      <Chart
        traces={compareTraces(answer.cases, 'ending_cash', years, [], label)}
        testId="cases-cash-chart"
        money
        title={t('ws.compare.chartTitle', { measure: t('ws.compare.measures.ending_cash') })}
        height={220}
      />
    </div>
  );
}
