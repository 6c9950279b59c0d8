import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EngineInput, WizardSummary } from './summary';

/** The wizard's summary, computed by the planning engine in the browser (loaded on first use). */
export function SummaryPanel({ input }: { input: EngineInput }) {
  const { t } = useTranslation();
  const [summary, setSummary] = useState<WizardSummary | null>(null);
  const [computing, setComputing] = useState(true);
  // One string holds every input that changes the numbers, so the effect re-runs only when one of them does.
  const key = JSON.stringify(input);

  useEffect(() => {
    let cancelled = false;
    setComputing(true);
    // Wait for the slider to settle before rebuilding the workbook.
    const timer = window.setTimeout(() => {
      const settled = JSON.parse(key) as EngineInput;
      void import('./engineSummary')
        .then(({ computeSummary }) => {
          if (!cancelled) setSummary(computeSummary(settled));
        })
        .catch(() => {
          if (!cancelled) setSummary(null);
        })
        .finally(() => {
          if (!cancelled) setComputing(false);
        });
    }, 250);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [key]);

  const rows: { label: string; value: number | undefined; test: string }[] = summary
    ? [
        { label: t('wizard.customers'), value: summary.customers, test: 'customers' },
        ...(input.template === 'saas'
          ? [
              { label: t('wizard.meetings'), value: summary.meetings, test: 'meetings' },
              { label: t('wizard.leads'), value: summary.leads, test: 'leads' },
            ]
          : [{ label: t('wizard.registrations'), value: summary.registrations, test: 'registrations' }]),
        { label: t('wizard.sessions'), value: summary.sessions, test: 'sessions' },
        { label: t('wizard.staff'), value: summary.staff, test: 'staff' },
      ]
    : [];

  return (
    <aside className="wizard-summary" aria-busy={computing} data-test="wizard-summary">
      <h2>{t('wizard.summary')}</h2>
      <p className="muted">{t('wizard.period', { n: input.period })}</p>
      {summary ? (
        <dl className={computing ? 'stale' : ''}>
          {rows.map((row) => (
            <div key={row.test} data-summary={row.test}>
              <dt>{row.label}</dt>
              <dd>{(row.value ?? 0).toLocaleString()}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">{t('wizard.computing')}</p>
      )}
    </aside>
  );
}
