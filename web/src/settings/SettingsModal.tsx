import { hasEdit, type ProfileEdit } from '@topline/contract';
import { useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useNotice } from '../notices';
import { levelOf } from '../plan/access';
import { useSession } from '../session';
import { type SettingsTab, ShellContext } from '../shell/ShellContext';
import { BillingPanel } from './BillingPanel';
import { HistoryPanel } from './HistoryPanel';
import { choiceLabel, EMPTY_PROFILE, ProfileFields, profileErrors } from './ProfileFields';
import { SnapshotsSection } from './SnapshotsSection';

interface SettingsModalProps {
  initialTab: SettingsTab;
  onClose: () => void;
  onLogout: () => void;
}

/**
 * The settings modal: plan list, subscription plan and billing, the plan's history (the owner and members who may edit
 * some area, as the API allows), profile, and logout. Closed only by its button.
 */
export default function SettingsModal({ initialTab, onClose, onLogout }: SettingsModalProps) {
  const { t } = useTranslation();
  const session = useSession();
  const shell = useContext(ShellContext);
  const historyPlan = shell && (shell.plan.is_owner || hasEdit(shell.plan.role)) ? shell.plan : null;
  // Snapshots follow the monthly P&L area's role: a viewer of it sees and downloads them, without the history.
  const snapshotsPlan = shell && !historyPlan && levelOf(shell.plan, 'monthly_pl') !== 'no_access' ? shell.plan : null;
  const [tab, setTab] = useState<SettingsTab>(
    initialTab === 'history' && !historyPlan && !snapshotsPlan ? 'plans' : initialTab,
  );
  const dialog = useRef<HTMLDialogElement>(null);
  // Unsaved profile edits ask before they are thrown away by closing or switching tab.
  const dirty = useRef(false);
  const leave = (then: () => void) => {
    if (dirty.current && !window.confirm(t('common.discardConfirm'))) return;
    dirty.current = false;
    then();
  };

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  const logout = async () => {
    await session.signOut();
    onLogout();
  };

  const tabs: { key: SettingsTab; label: string }[] = [
    { key: 'plans', label: t('settings.planList') },
    { key: 'plan', label: t('settings.plan') },
    ...(historyPlan ? [{ key: 'history' as const, label: t('history.tab') }] : []),
    ...(snapshotsPlan ? [{ key: 'history' as const, label: t('snapshots.title') }] : []),
    { key: 'profile', label: t('settings.profile') },
  ];

  return (
    <dialog
      ref={dialog}
      className="settings-modal"
      aria-label={t('settings.title')}
      onCancel={(event) => event.preventDefault()}
    >
      <header className="modal-header">
        <h2>{t('settings.title')}</h2>
        <button type="button" className="modal-close" aria-label={t('common.close')} onClick={() => leave(onClose)}>
          ×
        </button>
      </header>
      <div className="modal-body">
        <div className="modal-tabs" role="tablist">
          {tabs.map((entry) => (
            <button
              key={entry.key}
              type="button"
              role="tab"
              aria-selected={tab === entry.key}
              className={tab === entry.key ? 'active' : ''}
              onClick={() => leave(() => setTab(entry.key))}
            >
              {entry.label}
            </button>
          ))}
          <button type="button" className="button button-ghost logout" onClick={() => leave(() => void logout())}>
            {t('common.logout')}
          </button>
        </div>
        <div className="modal-panel" role="tabpanel">
          {tab === 'plans' && <PlanListTab onNavigate={() => leave(onClose)} />}
          {tab === 'plan' && <BillingPanel />}
          {tab === 'history' && historyPlan && shell && (
            <HistoryPanel plan={historyPlan} onPlanChanged={shell.planChanged} />
          )}
          {tab === 'history' && snapshotsPlan && shell && (
            <div className="history-panel" data-test="snapshots-panel">
              <SnapshotsSection
                planId={snapshotsPlan.business_plan_id}
                onRestored={async (answer) => shell.planChanged(answer)}
              />
            </div>
          )}
          {tab === 'profile' && (
            <ProfileTab
              onDirty={(value) => {
                dirty.current = value;
              }}
            />
          )}
        </div>
      </div>
    </dialog>
  );
}

function PlanListTab({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { user, plans } = useSession();
  return (
    <div className="plan-cards">
      {plans.map((plan) => (
        <article key={plan.business_plan_id} className="plan-card" data-plan-id={plan.business_plan_id}>
          <Link to={`/business-plans/${plan.business_plan_id}/pl`} onClick={onNavigate} className="plan-card-name">
            {plan.business_plan_name}
          </Link>
          <span className="template-label">
            {plan.template === 'saas' ? t('settings.templateSaas') : t('settings.templateSelfServe')}
          </span>
          {plan.is_owner && (
            <Link
              className="button button-ghost button-small"
              to={`/business-plans/${plan.business_plan_id}/setting`}
              onClick={onNavigate}
            >
              {t('common.edit')}
            </Link>
          )}
        </article>
      ))}
      {user?.plan.can_create_plan && (
        <Link className="plan-card plan-card-add" to="/create" onClick={onNavigate}>
          + {t('settings.add')}
        </Link>
      )}
      <p className="muted">
        {t('settings.current')}: {t(`landing.plans.${user?.plan.plan ?? 'free'}.name`)}
      </p>
    </div>
  );
}

function ProfileTab({ onDirty }: { onDirty: (dirty: boolean) => void }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const { user, refresh } = useSession();
  const stored: ProfileEdit = {
    ...EMPTY_PROFILE,
    name: user?.name ?? '',
    ...user?.company,
  };
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<ProfileEdit>(stored);
  const [busy, setBusy] = useState(false);
  const errors = profileErrors(draft);
  const invalid = Boolean(errors.name || errors.company_name);
  const isDirty = editing && JSON.stringify(draft) !== JSON.stringify(stored);
  useEffect(() => {
    onDirty(isDirty);
  }, [isDirty, onDirty]);

  const save = async () => {
    setBusy(true);
    try {
      await api.post('/user/edit', draft);
      // Re-read the user before leaving the form, so the view never shows the old values.
      await refresh();
      notify({ kind: 'success', title: t('common.success'), message: t('settings.profileSaved') });
      setEditing(false);
    } catch {
      // Notice already shown.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="profile-tab">
      <section className="panel">
        <h3>{t('settings.emailPanel')}</h3>
        <p data-test="profile-email">{user?.email}</p>
      </section>
      <section className="panel">
        <h3>{t('settings.profilePanel')}</h3>
        {editing ? (
          <>
            <ProfileFields profile={draft} onChange={setDraft} />
            <div className="form-actions">
              <button
                type="button"
                className="button button-ghost"
                onClick={() => {
                  setDraft(stored);
                  setEditing(false);
                }}
              >
                {t('common.cancel')}
              </button>
              <button type="button" className="button button-primary" disabled={busy || invalid} onClick={save}>
                {t('common.save')}
              </button>
            </div>
          </>
        ) : (
          <>
            <dl className="profile-view">
              <dt>{t('profile.name')}</dt>
              <dd>{stored.name}</dd>
              <dt>{t('profile.companyName')}</dt>
              <dd>{stored.company_name}</dd>
              <dt>{t('profile.position')}</dt>
              <dd>{choiceLabel(t, 'positions', stored.position)}</dd>
              <dt>{t('profile.employees')}</dt>
              <dd>{choiceLabel(t, 'employeeRanges', stored.employees)}</dd>
              <dt>{t('profile.stage')}</dt>
              <dd>{choiceLabel(t, 'stages', stored.stage)}</dd>
            </dl>
            <button
              type="button"
              className="button button-ghost"
              onClick={() => {
                setDraft(stored);
                setEditing(true);
              }}
            >
              {t('common.edit')}
            </button>
          </>
        )}
      </section>
    </div>
  );
}
