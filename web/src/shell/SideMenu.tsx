import type { PlanListItem, UserView } from '@topline/contract';
import { type MouseEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router';
import { runtimeConfig } from '../config';
import { usePlanIcon } from '../lib/planIcon';
import { SCREEN_MODULES } from './preload';
import { hasAccess, type ScreenDef, screenByKey } from './screens';

function PlanIcon({ plan }: { plan: PlanListItem }) {
  const src = usePlanIcon(plan.business_plan_icon);
  if (src) return <img src={src} alt="" width={32} height={32} />;
  return <span className="plan-icon-default">{plan.business_plan_name.slice(0, 1).toUpperCase()}</span>;
}

interface SideMenuProps {
  plan: PlanListItem;
  plans: PlanListItem[];
  user: UserView;
  collapsed: boolean;
  onToggle: () => void;
  onSettings: () => void;
  onPlanList: () => void;
}

/** The shell's side menu: screen groups, the user's plans, create, settings, collapse and external links. */
export function SideMenu({ plan, plans, user, collapsed, onToggle, onSettings, onPlanList }: SideMenuProps) {
  const { t } = useTranslation();
  const links = runtimeConfig().links;
  const base = `/business-plans/${plan.business_plan_id}`;
  const navigate = useNavigate();
  const pending = useRef<string | null>(null);
  /**
   * A screen's chunk loads as the pointer or the focus comes to its entry, and a click on a screen whose chunk is not
   * there yet moves once it is: the screen then renders at once, where a move ahead of its chunk would show the
   * loading fallback that React holds for up to 300 ms (`lib/preloadable.tsx`).
   */
  const intent = (screen: ScreenDef) => () => void SCREEN_MODULES[screen.key].preload().catch(() => {});
  const follow = (screen: ScreenDef, to: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    const plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (!plain) return;
    const module = SCREEN_MODULES[screen.key];
    // The latest click wins: a move still waiting for its chunk is dropped.
    if (module.loaded()) {
      pending.current = null;
      return;
    }
    event.preventDefault();
    if (pending.current === to) return;
    pending.current = to;
    const from = window.location.pathname;
    // A chunk that fails to load is asked for again by the screen, whose boundary then says so. A move the user made
    // meanwhile (another entry, the browser's back) stands.
    const go = () => {
      if (pending.current !== to) return;
      pending.current = null;
      if (window.location.pathname === from) navigate(to);
    };
    module.preload().then(go, go);
  };
  const item = (screen: ScreenDef, icon: string) => {
    const to = screen.path ? `${base}/${screen.path}` : base;
    return (
      <NavLink
        key={screen.key}
        to={to}
        end
        className={({ isActive }) => `menu-item${isActive ? ' active' : ''}`}
        title={collapsed ? t(screen.label) : undefined}
        data-screen={screen.key}
        onPointerEnter={intent(screen)}
        onFocus={intent(screen)}
        onClick={follow(screen, to)}
      >
        <span className="menu-icon" aria-hidden="true">
          {icon}
        </span>
        <span className="menu-text">{t(screen.label)}</span>
      </NavLink>
    );
  };
  return (
    <aside className={`side-menu${collapsed ? ' collapsed' : ''}`} aria-label="menu">
      <div className="plan-rail">
        <Link to="/" className="rail-logo" aria-label="Topline">
          T
        </Link>
        <ul className="plan-icons">
          {plans.map((entry) => (
            <li key={entry.business_plan_id}>
              <Link
                to={`/business-plans/${entry.business_plan_id}/pl`}
                className={`plan-icon${String(entry.business_plan_id) === String(plan.business_plan_id) ? ' active' : ''}`}
                aria-label={entry.business_plan_name}
                data-tooltip={entry.business_plan_name}
              >
                <PlanIcon plan={entry} />
              </Link>
            </li>
          ))}
        </ul>
        {user.plan.can_create_plan && (
          <Link to="/create" className="plan-add" aria-label={t('shell.addPlan')} data-tooltip={t('shell.addPlan')}>
            +
          </Link>
        )}
        <button type="button" className="rail-cog" aria-label={t('shell.settings')} onClick={onSettings}>
          ⚙
        </button>
      </div>
      <nav className="menu">
        <div className="menu-head">
          <span className="menu-plan-name">{plan.business_plan_name}</span>
          <button
            type="button"
            className="collapse-toggle"
            aria-label={collapsed ? t('shell.expand') : t('shell.collapse')}
            onClick={onToggle}
          >
            {collapsed ? '»' : '«'}
          </button>
        </div>
        <div className="menu-group">{item(screenByKey('home'), '⌂')}</div>
        <div className="menu-group">
          <p className="menu-group-title">{t('shell.management')}</p>
          {item(screenByKey('dashboard'), '◔')}
          {item(screenByKey('monthly_pl'), '▤')}
        </div>
        <div className="menu-group">
          <p className="menu-group-title">{t('shell.budgeting')}</p>
          {item(screenByKey('pl'), '≡')}
          {item(screenByKey('kpi'), '◎')}
          {item(screenByKey('revenue'), '↗')}
          {hasAccess(plan, screenByKey('expenses')) && item(screenByKey('expenses'), '¥')}
        </div>
        {plan.is_owner && (
          <div className="menu-group">
            <p className="menu-group-title">{t('shell.setting')}</p>
            {item(screenByKey('setting'), '✎')}
          </div>
        )}
        <div className="menu-group menu-external">
          <button type="button" className="menu-item" onClick={onPlanList}>
            <span className="menu-icon" aria-hidden="true">
              ▦
            </span>
            <span className="menu-text">{t('shell.businessPlan')}</span>
          </button>
          {/* Free (and a trial) hides the Knowledge link (product-and-account.md section 6). */}
          {user.plan.plan !== 'free' && (
            <MenuLink kind="knowledge" href={links.knowledge} icon="✦" collapsed={collapsed} />
          )}
          <MenuLink kind="help" href={links.help} icon="?" collapsed={collapsed} />
          <MenuLink kind="feedback" href={links.feedback} icon="✉" collapsed={collapsed} />
          <MenuLink kind="database" href={links.database} icon="◫" collapsed={collapsed} />
        </div>
      </nav>
    </aside>
  );
}

/** An outside link of the menu, from the configuration; a link the deployment did not set is not shown. */
function MenuLink(props: {
  kind: 'knowledge' | 'help' | 'feedback' | 'database';
  href?: string | undefined;
  icon: string;
  collapsed: boolean;
}) {
  const { t } = useTranslation();
  if (!props.href) return null;
  const label = t(`shell.${props.kind}`);
  return (
    <a
      className="menu-item"
      href={props.href}
      target="_blank"
      rel="noreferrer"
      data-link={props.kind}
      title={props.collapsed ? label : undefined}
    >
      <span className="menu-icon" aria-hidden="true">
        {props.icon}
      </span>
      <span className="menu-text">{label}</span>
    </a>
  );
}
