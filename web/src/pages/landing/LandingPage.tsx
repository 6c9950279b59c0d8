import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { runtimeConfig } from '../../config';
import { currentLanguage } from '../../i18n';
import { PriceTable } from '../PriceTable';
import { DemoButton, LandingHeader, SiteFooter } from '../SiteChrome';
import { VoicesCarousel } from './VoicesCarousel';

const STEP_KEYS = ['s1', 's2', 's3', 's4', 's5', 's6'] as const;
const FEATURE_KEYS = ['pl', 'kpi', 'actuals', 'dashboard', 'permission', 'knowledge'] as const;

/** The public landing page, Japanese or English by the browser language. */
export function LandingPage() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n.language);
  const config = runtimeConfig();
  const landing = config.landing;
  return (
    <div className="landing">
      <LandingHeader />
      <main>
        <section id="section-hero" className="hero">
          <div className="hero-text">
            <h1>{t('landing.heroTitle')}</h1>
            <p>{t('landing.heroText')}</p>
            <div className="hero-actions">
              <Link className="button button-primary button-large" to="/login">
                {t('landing.heroCta')}
              </Link>
              <DemoButton className="button button-accent button-large" />
            </div>
          </div>
          <figure className="demo-embed" aria-label={t('landing.demoEmbedTitle')}>
            <div className="demo-screen" aria-hidden="true">
              <div className="demo-bar" />
              <div className="demo-chart">
                {[28, 40, 52, 66, 80, 96].map((height) => (
                  <span key={height} style={{ height: `${height}%` }} />
                ))}
              </div>
            </div>
            <figcaption>{t('landing.demoEmbedCaption')}</figcaption>
          </figure>
        </section>

        <section id="section-steps" className="section steps">
          <h2>{t('landing.stepsTitle')}</h2>
          <ol className="step-list">
            {STEP_KEYS.map((key, index) => (
              <li key={key}>
                <span className="step-number">{index + 1}</span>
                <h3>{t(`landing.steps.${key}.title`)}</h3>
                <p>{t(`landing.steps.${key}.text`)}</p>
              </li>
            ))}
          </ol>
        </section>

        <section id="section-feature" className="section features">
          <h2>{t('landing.featureTitle')}</h2>
          <div className="feature-grid">
            {FEATURE_KEYS.map((key) => (
              <article key={key} className="feature">
                <h3>{t(`landing.features.${key}.title`)}</h3>
                <p>{t(`landing.features.${key}.text`)}</p>
              </article>
            ))}
          </div>
        </section>

        <section id="section-voices" className="section voices">
          <h2>{t('landing.voicesTitle')}</h2>
          <VoicesCarousel voices={landing.testimonials} />
        </section>

        <section id="section-media" className="section media">
          <h2>{t('landing.mediaTitle')}</h2>
          <p className="logo-strip-title">{t('landing.mediaLogos')}</p>
          <ul className="logo-strip">
            {landing.logos.map((logo) => (
              <li key={logo}>{logo}</li>
            ))}
          </ul>
          <ul className="media-links">
            {landing.articles.map((article) => {
              const text = (
                <>
                  <span className="outlet">{article.outlet}</span>
                  <span>{article.title[language]}</span>
                </>
              );
              return (
                <li key={`${article.outlet} ${article.title.en}`}>
                  {article.url ? (
                    <a href={article.url} target="_blank" rel="noreferrer">
                      {text}
                    </a>
                  ) : (
                    <span className="media-item">{text}</span>
                  )}
                </li>
              );
            })}
          </ul>
        </section>

        <section id="section-price" className="section price">
          <h2>{t('landing.priceTitle')}</h2>
          <PriceTable />
          <p className="price-note">{t('landing.priceNote')}</p>
          <div className="price-actions">
            <Link className="button button-primary" to="/login">
              {t('landing.heroCta')}
            </Link>
            <DemoButton />
          </div>
        </section>

        <section id="section-product" className="section product">
          <h2>{t('landing.productTitle')}</h2>
          <div className="product-grid">
            <ProductCard kind="database" href={config.links.database} />
            <ProductCard kind="blog" href={config.links.blog} />
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}

/** A product of the company beside Topline: a link to it when the configuration has one, else only its description. */
function ProductCard({ kind, href }: { kind: 'database' | 'blog'; href: string | undefined }) {
  const { t } = useTranslation();
  const text = (
    <>
      <h3>{t(`landing.${kind}.title`)}</h3>
      <p>{t(`landing.${kind}.text`)}</p>
    </>
  );
  if (!href) return <article className="product-card">{text}</article>;
  return (
    <a className="product-card" href={href} target="_blank" rel="noreferrer" data-link={kind}>
      {text}
      <span className="more">{t('landing.open')} →</span>
    </a>
  );
}
