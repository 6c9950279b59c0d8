import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../api/client';
import { runtimeConfig } from '../config';

/** The shell's address of the settings modal open on its Plan tab (the shell opens it from `?settings=plan`). */
export function usePlanTabLink(): { pathname: string; search: string } {
  const { pathname } = useLocation();
  return { pathname, search: '?settings=plan' };
}

/**
 * The placeholder on a tier-locked screen: title, text, image, Upgrade (to the Plan tab of the settings modal, where
 * the user subscribes) and demo request (when the configuration has a booking page).
 */
export function UpgradePlaceholder() {
  const { t } = useTranslation();
  const planTab = usePlanTabLink();
  const booking = runtimeConfig().demoBookingUrl;
  return (
    <section className="upgrade-placeholder" data-test="upgrade-placeholder">
      <svg viewBox="0 0 120 80" width="180" height="120" aria-hidden="true">
        <rect x="8" y="20" width="104" height="52" rx="6" fill="#ece8fb" />
        <rect x="20" y="48" width="12" height="16" fill="#b6a6f0" />
        <rect x="40" y="40" width="12" height="24" fill="#9b85ea" />
        <rect x="60" y="32" width="12" height="32" fill="#7d62e0" />
        <rect x="80" y="24" width="12" height="40" fill="#5b3fd1" />
        <circle cx="96" cy="16" r="12" fill="#5b3fd1" />
        <path d="M91 16h10M96 11v10" stroke="#fff" strokeWidth="2.5" />
      </svg>
      <h2>{t('shell.lockedTitle')}</h2>
      <p>{t('shell.lockedText')}</p>
      <div className="form-actions">
        <Link className="button button-primary" to={planTab}>
          {t('common.upgrade')}
        </Link>
        {booking && (
          <a className="button button-ghost" href={booking} target="_blank" rel="noreferrer" data-test="demo-request">
            {t('common.demoRequest')}
          </a>
        )}
      </div>
    </section>
  );
}

/** The panel that replaces an area whose role is no_access. */
export function NoAccessPanel() {
  const { t } = useTranslation();
  return (
    <section className="no-access" data-test="no-access">
      <h2>{t('shell.noAccessTitle')}</h2>
      <p>{t('errors.noAccess')}</p>
    </section>
  );
}

interface BoundaryProps {
  children: ReactNode;
}

/** A screen that failed for another reason: the catalogue's internal-error text, not a blank page. */
function ScreenFailed() {
  const { t } = useTranslation();
  return (
    <section className="no-access" role="alert">
      <h2>{t('errors.internal.title')}</h2>
      <p>{t('errors.internal.message')}</p>
    </section>
  );
}

/**
 * Screens may throw the API's tier-lock or no-access error while rendering; this shows the matching panel. Any other
 * failure of a screen shows the internal-error panel and leaves the shell usable.
 */
export class ScreenBoundary extends Component<BoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error instanceof ApiError && error.code === 'tier_lock') {
      return <UpgradePlaceholder />;
    }
    if (error instanceof ApiError && error.code === 'no_access') return <NoAccessPanel />;
    if (error) return <ScreenFailed />;
    return this.props.children;
  }
}
