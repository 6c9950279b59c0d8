import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { runtimeConfig } from '../config';
import { currentLanguage, LANGUAGES } from '../i18n';

export const SECTION_ANCHORS = [
  { id: 'section-hero', label: 'nav.hero' },
  { id: 'section-steps', label: 'nav.steps' },
  { id: 'section-feature', label: 'nav.feature' },
  { id: 'section-voices', label: 'nav.voices' },
  { id: 'section-media', label: 'nav.media' },
  { id: 'section-price', label: 'nav.price' },
  { id: 'section-product', label: 'nav.product' },
] as const;

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="Topline">
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <rect width="32" height="32" rx="6" fill="currentColor" />
        <path d="M6 24 14 14l5 5 7-11" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
      </svg>
      <span>Topline</span>
    </Link>
  );
}

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n.language);
  return (
    <select
      className="language-switch"
      aria-label={t('common.language')}
      value={language}
      onChange={(event) => void i18n.changeLanguage(event.target.value)}
    >
      {LANGUAGES.map((code) => (
        <option key={code} value={code}>
          {code === 'ja' ? '日本語' : 'English'}
        </option>
      ))}
    </select>
  );
}

/**
 * The demo-request button, in both languages (sign-up asks every new address for a demo first): it opens the booking
 * page of the configuration, and is not shown when none is set.
 */
export function DemoButton({ className = 'button button-accent' }: { className?: string }) {
  const { t } = useTranslation();
  const booking = runtimeConfig().demoBookingUrl;
  if (!booking) return null;
  return (
    <a className={className} href={booking} target="_blank" rel="noreferrer" data-test="demo-request">
      {t('common.demoRequest')}
    </a>
  );
}

/** The contact link of the configuration (a form or a mailto address); nothing when none is set. */
export function ContactLink({ className }: { className?: string }) {
  const { t } = useTranslation();
  const contact = runtimeConfig().contactUrl;
  if (!contact) return null;
  return (
    <a className={className} href={contact} data-link="contact">
      {t('common.contact')}
    </a>
  );
}

/** Header of the landing page: anchors, login, demo request and the hamburger for the full-screen menu. */
export function LandingHeader() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    document.body.classList.toggle('no-scroll', menuOpen);
    return () => document.body.classList.remove('no-scroll');
  }, [menuOpen]);
  return (
    <header className="site-header">
      <Logo />
      <nav className="site-nav" aria-label="sections">
        {SECTION_ANCHORS.slice(1).map((anchor) => (
          <a key={anchor.id} href={`#${anchor.id}`}>
            {t(anchor.label)}
          </a>
        ))}
      </nav>
      <div className="site-actions">
        <LanguageSwitch />
        <Link className="button button-ghost" to="/login">
          {t('common.login')}
        </Link>
        <DemoButton />
        <button type="button" className="hamburger" aria-label={t('nav.openMenu')} onClick={() => setMenuOpen(true)}>
          <span />
          <span />
          <span />
        </button>
      </div>
      {menuOpen && <MobileMenu onClose={() => setMenuOpen(false)} />}
    </header>
  );
}

function MobileMenu({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  useEffect(() => {
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [onClose]);
  return (
    <div className="mobile-menu" role="dialog" aria-modal="true" aria-label={t('nav.openMenu')}>
      <button type="button" className="mobile-menu-close" aria-label={t('nav.closeMenu')} onClick={onClose}>
        ×
      </button>
      <nav>
        {SECTION_ANCHORS.map((anchor) => (
          <a key={anchor.id} href={`#${anchor.id}`} onClick={onClose}>
            {t(anchor.label)}
          </a>
        ))}
        <Link to="/terms">{t('nav.terms')}</Link>
        <Link to="/law">{t('nav.law')}</Link>
        <Link to="/privacy-policy">{t('nav.privacy')}</Link>
        <ContactLink />
      </nav>
      <div className="mobile-menu-actions">
        <LanguageSwitch />
        <Link className="button button-primary" to="/login">
          {t('common.login')}
        </Link>
        <DemoButton />
      </div>
    </div>
  );
}

/** Header of the legal and error pages: the logo links to the top page. */
export function PlainHeader() {
  return (
    <header className="site-header plain">
      <Logo />
      <div className="site-actions">
        <LanguageSwitch />
      </div>
    </header>
  );
}

export function SiteFooter({ withAnchors = true }: { withAnchors?: boolean }) {
  const { t } = useTranslation();
  const social = runtimeConfig().links.social;
  return (
    <footer className="site-footer">
      {withAnchors && (
        <nav className="footer-anchors">
          {SECTION_ANCHORS.map((anchor) => (
            <a key={anchor.id} href={`/#${anchor.id}`}>
              {t(anchor.label)}
            </a>
          ))}
        </nav>
      )}
      <nav className="footer-legal">
        <Link to="/terms">{t('nav.terms')}</Link>
        <Link to="/law">{t('nav.law')}</Link>
        <Link to="/privacy-policy">{t('nav.privacy')}</Link>
        <ContactLink />
        {social && (
          <a href={social} target="_blank" rel="noreferrer" data-link="social">
            {t('nav.social')}
          </a>
        )}
      </nav>
      <p className="copyright">{t('nav.copyright', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
