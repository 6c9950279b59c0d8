import { useTranslation } from 'react-i18next';
import { FIRST_YEAR, LAST_YEAR, yearMonths } from '../lib/months';

/** 'Year N' with its 12 month labels; previous is hidden at Year 1 and next at Year 6. */
export function YearSwitcher({
  year,
  startYear,
  startMonth,
  onChange,
}: {
  year: number;
  startYear: number;
  startMonth: number;
  onChange: (year: number) => void;
}) {
  const { t } = useTranslation();
  const months = yearMonths(startYear, startMonth, year);
  return (
    <div className="year-switcher" data-test="year-switcher">
      <button
        type="button"
        className="year-nav"
        aria-label={t('shell.prevYear')}
        style={{ visibility: year > FIRST_YEAR ? 'visible' : 'hidden' }}
        onClick={() => onChange(year - 1)}
      >
        ‹
      </button>
      <div className="year-label">
        <strong>{t('shell.year', { n: year })}</strong>
        <span className="year-period">
          {months[0]} – {months[11]}
        </span>
      </div>
      <button
        type="button"
        className="year-nav"
        aria-label={t('shell.nextYear')}
        style={{ visibility: year < LAST_YEAR ? 'visible' : 'hidden' }}
        onClick={() => onChange(year + 1)}
      >
        ›
      </button>
      <ol className="year-months" aria-label={t('shell.year', { n: year })}>
        {months.map((month) => (
          <li key={month}>{month}</li>
        ))}
      </ol>
    </div>
  );
}
