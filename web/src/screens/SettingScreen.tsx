import { FIRST_START_YEAR, lastStartYear, NAME_MAX, THEME_COLORS } from '@topline/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate } from 'react-router';
import { api } from '../api/client';
import { acceptIcon } from '../lib/icon';
import { usePlanIcon } from '../lib/planIcon';
import { useNotice } from '../notices';
import { followSave } from '../plan/engineSession';
import { useSession } from '../session';
import { useShell } from '../shell/ShellContext';
import { Confirm, useScreenReady } from './common/ui';
import { Members } from './setting/Members';
import '../styles/screens/setting.css';

/** Business plan settings (working-screens.md section 2): name, start, icon, theme colour, members, deletion. */
export default function SettingScreen() {
  const { t } = useTranslation();
  const { plan } = useShell();
  const { refresh, plans } = useSession();
  const notice = useNotice();
  const navigate = useNavigate();
  const planId = plan.business_plan_id;
  const [name, setName] = useState(plan.business_plan_name);
  const [startYear, setStartYear] = useState(plan.start_year);
  const [startMonth, setStartMonth] = useState(plan.start_month);
  const [icon, setIcon] = useState<File | null>(null);
  // The icon chosen and not yet saved, else the plan's own.
  const [chosen, setChosen] = useState<string | null>(null);
  const stored = usePlanIcon(plan.business_plan_icon);
  const preview = chosen ?? stored;
  // A chosen icon's object URL is let go once another replaces it, or the screen closes.
  useEffect(
    () => () => {
      if (chosen !== null) URL.revokeObjectURL(chosen);
    },
    [chosen],
  );
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  useScreenReady(true);
  // Unsaved edits of the plan form (section 5): leaving the screen in the app, or closing the tab, asks first.
  const dirty =
    name !== plan.business_plan_name ||
    startYear !== plan.start_year ||
    startMonth !== plan.start_month ||
    icon !== null;
  const leavingOnPurpose = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leavingOnPurpose.current &&
      currentLocation.pathname !== nextLocation.pathname &&
      // A session that ended goes to Login without asking.
      nextLocation.pathname !== '/login',
  );
  useEffect(() => {
    if (!dirty) return;
    const onUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);
  const years = Array.from(
    { length: lastStartYear(new Date()) - FIRST_START_YEAR + 1 },
    (_, i) => FIRST_START_YEAR + i,
  );

  const save = async () => {
    const form = new FormData();
    form.set('business_plan_id', String(planId));
    form.set('business_plan_name', name.trim());
    form.set('start_year', String(startYear));
    form.set('start_month', String(startMonth));
    if (icon) form.set('business_plan_icon', icon, icon.name);
    setSaving(true);
    try {
      const answer = await api.post('/business-plan/edit', form);
      void followSave(String(planId), answer, { applied: false });
      notice({ kind: 'success', title: t('ws.common.saved'), message: t('ws.setting.planUpdated') });
      setIcon(null);
      await refresh();
      setChosen(null);
    } catch {
      // The client shows the server's message.
    } finally {
      setSaving(false);
    }
  };

  const setTheme = async (theme: (typeof THEME_COLORS)[number]) => {
    try {
      await api.post('/business-plan/theme-color', { business_plan_id: planId, theme_color: theme });
      notice({ kind: 'success', title: t('ws.common.saved'), message: t('ws.setting.themeSaved') });
      await refresh();
    } catch {
      // The client shows the server's message.
    }
  };

  // After a deletion (section 4): the user's next owned plan, else Create. The shell is left before the session is
  // read again, so it never sees its plan gone (which it answers with the 404 page); the next screen reads the session.
  const remove = async () => {
    setDeleting(false);
    try {
      await api.post('/business-plan/delete', { business_plan_id: planId });
    } catch {
      return;
    }
    const next = plans.find((p) => p.is_owner && p.business_plan_id !== planId);
    leavingOnPurpose.current = true;
    navigate(next ? `/business-plans/${next.business_plan_id}/pl` : '/create', { replace: true });
  };

  return (
    <section className="ws-screen ws-setting" data-screen="setting">
      <div className="ws-card" data-test="plan-form">
        <h3>{t('ws.setting.plan')}</h3>
        <label className="field">
          <span>{t('ws.setting.name')}</span>
          <input
            name="business_plan_name"
            value={name}
            maxLength={NAME_MAX}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <div className="ws-term">
          <label className="field">
            <span>{t('ws.setting.startYear')}</span>
            <select value={startYear} onChange={(e) => setStartYear(Number(e.target.value))}>
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('ws.setting.startMonth')}</span>
            <select value={startMonth} onChange={(e) => setStartMonth(Number(e.target.value))}>
              {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label className="field">
          <span>{t('ws.setting.icon')}</span>
          <input
            type="file"
            accept="image/jpeg,image/png"
            data-test="icon-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (!acceptIcon(file)) {
                e.target.value = '';
                return;
              }
              setIcon(file);
              setChosen(URL.createObjectURL(file));
            }}
          />
        </label>
        {preview && <img className="ws-icon-preview" src={preview} alt="" data-test="icon-preview" />}
        <p className="muted">{t('ws.setting.iconRule')}</p>
        <div className="form-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={saving || name.trim() === ''}
            onClick={() => void save()}
          >
            {t('ws.common.save')}
          </button>
        </div>
      </div>
      <div className="ws-card" data-test="theme">
        <h3>{t('ws.setting.theme')}</h3>
        <div className="ws-themes">
          {THEME_COLORS.map((theme) => (
            <label key={theme} className={`ws-theme theme-swatch-${theme}`}>
              <input
                type="radio"
                name="theme_color"
                value={theme}
                checked={plan.theme_color === theme}
                onChange={() => void setTheme(theme)}
              />
              {t(`ws.setting.themes.${theme}`)}
            </label>
          ))}
        </div>
      </div>
      <Members planId={planId} />
      <div className="ws-card ws-danger" data-test="delete-plan">
        <h3>{t('ws.setting.deletePlan')}</h3>
        <p className="muted">{t('ws.setting.deleteNote')}</p>
        <button type="button" className="button" onClick={() => setDeleting(true)}>
          {t('ws.setting.deletePlan')}
        </button>
      </div>
      {blocker.state === 'blocked' && (
        <Confirm
          title={t('ws.setting.plan')}
          message={t('common.discardConfirm')}
          confirmLabel={t('ws.setting.discard')}
          onCancel={() => blocker.reset()}
          onConfirm={() => blocker.proceed()}
        />
      )}
      {deleting && (
        <Confirm
          title={t('ws.setting.deletePlan')}
          message={t('ws.setting.deleteConfirm', { name: plan.business_plan_name })}
          confirmLabel={t('ws.common.delete')}
          onCancel={() => setDeleting(false)}
          onConfirm={() => void remove()}
        />
      )}
    </section>
  );
}
