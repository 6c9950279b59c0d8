import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShell } from '../shell/ShellContext';

/** Stand-in for a working screen (spec/working-screens.md) until that screen is built. */
export function ScreenPlaceholder({ titleKey, screen }: { titleKey: string; screen: string }) {
  const { t } = useTranslation();
  const { plan, year, setLoading } = useShell();
  useEffect(() => {
    setLoading(false);
  }, [setLoading]);
  return (
    <section className="screen-placeholder" data-screen={screen}>
      <h1>{t(titleKey)}</h1>
      <p className="muted">
        {plan.business_plan_name} · {t('shell.year', { n: year })}
      </p>
      <p>{t('shell.placeholder')}</p>
    </section>
  );
}
