import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PlainHeader } from './SiteChrome';

/** The 404 'Not Found' and 500 'Internal Error' pages. */
export default function ErrorPage({ code }: { code: 404 | 500 }) {
  const { t } = useTranslation();
  const title = code === 404 ? t('errorPage.notFound') : t('errorPage.internal');
  const text = code === 404 ? t('errorPage.notFoundText') : t('errorPage.internalText');
  return (
    <div className="page-plain">
      <PlainHeader />
      <main className="error-page">
        <p className="error-code">{code}</p>
        <h1>{title}</h1>
        <p>{text}</p>
        <Link className="button button-primary" to="/">
          {t('errorPage.toTop')}
        </Link>
      </main>
    </div>
  );
}
