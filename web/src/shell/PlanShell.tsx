import { AREAS, type ScreenKey } from '@topline/contract';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ExplainHost } from '../explain/ExplainContext';
import { canEdit } from '../plan/access';
import { followSave, type SavedAnswer, wantEngine } from '../plan/engineSession';
import { useSession } from '../session';
import { TierNoticeBox } from '../settings/TierNotice';
import { openingYear, trialDaysShown } from './dates';
import { Loading } from './Loading';
import { NoAccessPanel, ScreenBoundary, UpgradePlaceholder, usePlanTabLink } from './Panels';
import { GRID_SCREENS, prefetchScreens } from './preload';
import { type SettingsTab, ShellContext, type ShellView } from './ShellContext';
import { SideMenu } from './SideMenu';
import { hasAccess, SCREEN_COMPONENTS, SCREENS, screenByKey, screenLocked, showsYearSwitcher } from './screens';
import { YearSwitcher } from './YearSwitcher';

const SettingsModal = lazy(() => import('../settings/SettingsModal'));
const COLLAPSE_KEY = 'topline.menu_collapsed';
const SETTINGS_TABS: readonly SettingsTab[] = ['plans', 'plan', 'history', 'profile'];

/** Puts the keyboard on the screen's first grid, at its first cell (or on the screen's content while it loads). */
function skipToGrid(event: React.MouseEvent) {
  event.preventDefault();
  const row = 'main .data-grid .ag-row[row-index="0"]';
  const cell =
    document.querySelector<HTMLElement>(`${row} .ag-grid-scrolling-cells .ag-cell`) ??
    document.querySelector<HTMLElement>(`${row} .ag-cell`);
  if (cell) cell.focus();
  else document.querySelector<HTMLElement>('main')?.focus();
}

function screenKeyFromPath(rest: string): ScreenKey | null {
  const first = rest.split('/')[0] ?? '';
  return SCREENS.find((screen) => screen.path === first)?.key ?? null;
}

/** The logged-in shell around every screen of /business-plans/:id. */
export default function PlanShell() {
  const { t } = useTranslation();
  const params = useParams();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const { user, plans, notice } = useSession();
  const planId = params.id ?? '';
  const plan = plans.find((entry) => String(entry.business_plan_id) === planId);
  const screenKey = screenKeyFromPath(params['*'] ?? '');
  const [year, setYear] = useState(() => (plan ? openingYear(plan, new Date()) : 1));
  const [loading, setLoading] = useState(true);
  // Bumped when the plan changed outside the screen (a restore), so the screen mounts afresh and reads it again.
  const [revision, setRevision] = useState(0);
  const [collapsed, setCollapsed] = useState(() => window.localStorage.getItem(COLLAPSE_KEY) === '1');
  const [settingsTab, setSettingsTab] = useState<SettingsTab | null>(
    search.get('settings') ? ((search.get('settings') as SettingsTab) ?? 'plans') : null,
  );

  // A change of plan (or of its start) resets the year to the one holding today.
  const startYear = plan?.start_year;
  const startMonth = plan?.start_month;
  useEffect(() => {
    if (startYear !== undefined && startMonth !== undefined) {
      setYear(openingYear({ start_year: startYear, start_month: startMonth }, new Date()));
    }
  }, [startYear, startMonth]);

  // Loading is on whenever the screen changes, unless the screen is locked.
  useEffect(() => {
    if (screenKey) setLoading(true);
  }, [screenKey]);

  // A link to `?settings=<tab>` (the upgrade placeholder, the trial banner) opens the modal on that tab.
  const linkedTab = search.get('settings');
  useEffect(() => {
    if (linkedTab)
      setSettingsTab(SETTINGS_TABS.includes(linkedTab as SettingsTab) ? (linkedTab as SettingsTab) : 'plans');
  }, [linkedTab]);
  const planTab = usePlanTabLink();

  const openSettings = useCallback((tab: SettingsTab = 'plans') => setSettingsTab(tab), []);
  const closeSettings = useCallback(() => {
    setSettingsTab(null);
    if (search.has('settings')) {
      search.delete('settings');
      setSearch(search, { replace: true });
    }
  }, [search, setSearch]);

  const planChanged = useCallback(
    (answer: SavedAnswer) => {
      setLoading(true);
      setRevision((value) => value + 1);
      void followSave(planId, answer, { applied: false });
    },
    [planId],
  );

  // Once the first screen has shown its numbers, the side menu's other screens load when the browser is idle.
  const prefetched = useRef(false);
  useEffect(() => {
    if (loading || !plan || prefetched.current) return;
    prefetched.current = true;
    prefetchScreens(
      SCREENS.filter((entry) => hasAccess(plan, entry) && !screenLocked(plan, entry)).map((entry) => entry.key),
    );
  }, [loading, plan]);

  // The browser's workbook is built once the user reaches into a screen of a plan they may edit: a pointer, a key or
  // the focus in the content (engineSession.ts); a plan they only view never needs it for an edit.
  const editsAny = plan ? AREAS.some((area) => canEdit(plan, area)) : false;
  const reachIn = useCallback(() => {
    if (editsAny) wantEngine(planId);
  }, [editsAny, planId]);

  const view = useMemo<ShellView | null>(
    () => (plan ? { plan, year, setYear, setLoading, openSettings, planChanged } : null),
    [plan, year, openSettings, planChanged],
  );

  if (!user) return <Loading />;
  if (!plan || !view) return <Navigate to="/404" replace />;
  if (!screenKey) return <Navigate to={`/business-plans/${planId}/pl`} replace />;
  if (screenKey === 'setting' && !plan.is_owner) return <Navigate to={`/business-plans/${planId}/pl`} replace />;

  const screen = screenByKey(screenKey);
  const locked = screenLocked(plan, screen);
  const allowed = hasAccess(plan, screen);
  const Screen = SCREEN_COMPONENTS[screenKey];
  const trialDays = trialDaysShown(user.plan, new Date());

  const toggle = () => {
    setCollapsed((value) => {
      window.localStorage.setItem(COLLAPSE_KEY, value ? '0' : '1');
      return !value;
    });
  };

  return (
    <ShellContext.Provider value={view}>
      <div className={`shell theme-${plan.theme_color}${collapsed ? ' menu-collapsed' : ''}`}>
        {GRID_SCREENS.has(screenKey) && (
          // biome-ignore lint/a11y/useValidAnchor: a skip link is in-page navigation; it puts the grid's focus on a cell
          <a className="skip-link" href="#content" data-test="skip-to-grid" onClick={skipToGrid}>
            {t('ws.table.skip')}
          </a>
        )}
        <SideMenu
          plan={plan}
          plans={plans}
          user={user}
          collapsed={collapsed}
          onToggle={toggle}
          onSettings={() => openSettings('plans')}
          onPlanList={() => openSettings('plans')}
        />
        <div className="shell-main">
          {trialDays !== null && (
            <div className="trial-banner" role="status" data-test="trial-banner">
              <span>{t('shell.trial', { days: trialDays })}</span>
              <Link to={planTab}>{t('shell.trialLink')}</Link>
            </div>
          )}
          {notice && !settingsTab && <TierNoticeBox notice={notice} />}
          <header className="shell-header">
            <h1 className="shell-title">{t(screen.label)}</h1>
            {showsYearSwitcher(screenKey) && (
              <YearSwitcher year={year} startYear={plan.start_year} startMonth={plan.start_month} onChange={setYear} />
            )}
          </header>
          <main
            className="shell-content"
            id="content"
            tabIndex={-1}
            onPointerDown={reachIn}
            onKeyDown={reachIn}
            onFocus={reachIn}
          >
            {locked ? (
              <UpgradePlaceholder />
            ) : !allowed ? (
              <NoAccessPanel />
            ) : (
              <ScreenBoundary key={`${screenKey}:${revision}`}>
                <Suspense fallback={<Loading />}>
                  <Screen />
                </Suspense>
                {loading && (
                  <div className="content-loading">
                    <Loading />
                  </div>
                )}
              </ScreenBoundary>
            )}
          </main>
        </div>
        {settingsTab && (
          <Suspense fallback={null}>
            <SettingsModal
              initialTab={settingsTab}
              onClose={closeSettings}
              onLogout={() => navigate('/', { replace: true })}
            />
          </Suspense>
        )}
        <ExplainHost planId={plan.business_plan_id} />
      </div>
    </ShellContext.Provider>
  );
}
