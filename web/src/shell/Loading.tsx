import { useTranslation } from 'react-i18next';

/** The loading animation shown while a page or its data loads. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="loading-dot" />
      <span className="loading-dot" />
      <span className="loading-dot" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
