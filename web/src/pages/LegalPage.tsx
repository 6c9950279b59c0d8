import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../config';
import { currentLanguage } from '../i18n';
import { withContacts } from './legal/contacts';
import { lawEn, lawJa } from './legal/law';
import { privacyEn, privacyJa } from './legal/privacy';
import { type LegalDocument, termsEn, termsJa } from './legal/terms';
import { PlainHeader, SiteFooter } from './SiteChrome';

const DOCUMENTS: Record<'terms' | 'law' | 'privacy', { ja: LegalDocument; en: LegalDocument }> = {
  terms: { ja: termsJa, en: termsEn },
  law: { ja: lawJa, en: lawEn },
  privacy: { ja: privacyJa, en: privacyEn },
};

/** Terms of use, the commercial notice and the privacy policy. */
export default function LegalPage({ kind }: { kind: 'terms' | 'law' | 'privacy' }) {
  const { t, i18n } = useTranslation();
  // The addresses come from the configuration; a line that gives one that is not set is left out.
  const doc = withContacts(DOCUMENTS[kind][currentLanguage(i18n.language)], runtimeConfig());
  return (
    <div className="page-plain">
      <PlainHeader />
      <main className="legal">
        <h1>{doc.title}</h1>
        <p className="legal-updated">{t('legal.updated', { date: doc.updated })}</p>
        {doc.intro && <p>{doc.intro}</p>}
        {kind === 'law' ? (
          <dl className="legal-table">
            {doc.sections.map((section) => (
              <div key={section.title}>
                <dt>{section.title}</dt>
                <dd>{section.body.join(' ')}</dd>
              </div>
            ))}
          </dl>
        ) : (
          doc.sections.map((section) => (
            <section key={section.title}>
              <h2>{section.title}</h2>
              {section.body.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </section>
          ))
        )}
      </main>
      <SiteFooter withAnchors={false} />
    </div>
  );
}
