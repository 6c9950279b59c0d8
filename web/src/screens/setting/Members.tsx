import { AREAS, hasEdit, LEVELS, type Roles } from '@topline/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, fieldErrorsOf } from '../../api/client';
import { checkEmail } from '../../lib/validation';
import { useRetrieve } from '../../plan/answers';
import { Confirm, Modal } from '../common/ui';

const defaultRoles = () => Object.fromEntries(AREAS.map((a) => [a, 'can_view'])) as Roles;

/**
 * Members and invitations with per-area roles (section 5). Whether members may be added or given can_edit, and how
 * many editors the tier allows, come from the member list's answer.
 */
export function Members({ planId }: { planId: number }) {
  const { t } = useTranslation();
  const list = useRetrieve('/authority/retrieve', { business_plan_id: planId });
  const [form, setForm] = useState<{ email: string; roles: Roles; existing: boolean } | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [resent, setResent] = useState<string | null>(null);
  const data = list.data;
  if (!data) return null;

  const othersEditing = (email: string) =>
    data.role.filter((m) => !m.is_owner && m.email !== email && hasEdit(m.roles)).length;
  const limitReached = form ? hasEdit(form.roles) && othersEditing(form.email) >= data.editor_limit : false;

  const submit = async () => {
    if (!form) return;
    const error = checkEmail(form.email);
    if (error) {
      setEmailError(t(`validation.${error.key}`, { field: t('ws.setting.email') }));
      return;
    }
    try {
      await api.post(form.existing ? '/authority/edit' : '/authority/add', {
        business_plan_id: planId,
        email: form.email,
        ...form.roles,
      });
      setForm(null);
      await list.reload();
    } catch (caught) {
      const fields = fieldErrorsOf(caught);
      if (fields.email) setEmailError(fields.email);
    }
  };

  /** Sends the invitation e-mail again; a refusal (say, the member joined meanwhile) is shown by the client. */
  const resend = async (email: string) => {
    try {
      await api.post('/authority/resend', { business_plan_id: planId, email });
      setResent(email);
      // An expired invitation is live again: the list shows it as invited.
      await list.reload();
    } catch {
      await list.reload();
    }
  };

  return (
    <section className="ws-card" data-test="members">
      <header className="ws-card-header">
        <h3>{t('ws.setting.members')}</h3>
        {data.can_add_member && (
          <button
            type="button"
            className="button button-small button-primary"
            data-test="member-add"
            onClick={() => {
              setEmailError(null);
              setForm({ email: '', roles: defaultRoles(), existing: false });
            }}
          >
            + {t('ws.setting.invite')}
          </button>
        )}
      </header>
      <p className="muted" data-test="member-tier-note">
        {data.tier === 'team'
          ? t('ws.setting.teamNote', { limit: data.editor_limit, count: data.editor_count })
          : data.tier === 'basic'
            ? t('ws.setting.basicNote')
            : t('ws.setting.freeNote')}
      </p>
      <table className="ws-table">
        <thead>
          <tr>
            <th>{t('ws.setting.member')}</th>
            <th>{t('ws.setting.status')}</th>
            {AREAS.map((a) => (
              <th key={a}>{t(`ws.areas.${a}`)}</th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {data.role.map((m) => (
            <tr key={m.email} data-test={`member-${m.email}`}>
              <td>
                {m.name || m.email}
                <br />
                <small className="muted">{m.email}</small>
              </td>
              <td>{m.is_owner ? t('ws.setting.owner') : t(`ws.setting.memberStatus.${m.status}`)}</td>
              {AREAS.map((a) => (
                <td key={a}>{t(`ws.roles.${m.roles[a]}`)}</td>
              ))}
              <td>
                {!m.is_owner && (
                  <span className="ws-row-actions">
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => {
                        setEmailError(null);
                        setForm({ email: m.email, roles: { ...m.roles }, existing: true });
                      }}
                    >
                      {t('ws.common.edit')}
                    </button>
                    {m.status !== 'joined' &&
                      (resent === m.email ? (
                        <span className="muted">{t('ws.setting.invitationResent')}</span>
                      ) : (
                        <button
                          type="button"
                          className="link-button"
                          data-test="member-resend"
                          onClick={() => void resend(m.email)}
                        >
                          {t('ws.setting.resendInvitation')}
                        </button>
                      ))}
                    <button type="button" className="link-button" onClick={() => setRemoving(m.email)}>
                      {t('ws.common.delete')}
                    </button>
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {form && (
        <Modal
          title={form.existing ? t('ws.setting.editMember') : t('ws.setting.invite')}
          onClose={() => setForm(null)}
          testId="member-form"
          footer={
            <button
              type="button"
              className="button button-primary"
              disabled={limitReached}
              onClick={() => void submit()}
            >
              {t('ws.common.save')}
            </button>
          }
        >
          <label className="field">
            <span>{t('ws.setting.email')}</span>
            <input
              type="email"
              name="email"
              value={form.email}
              disabled={form.existing}
              aria-invalid={emailError !== null}
              onChange={(e) => {
                setEmailError(null);
                setForm({ ...form, email: e.target.value });
              }}
            />
            {emailError && <span className="field-error">{emailError}</span>}
          </label>
          <table className="ws-table ws-roles">
            <tbody>
              {AREAS.map((area) => (
                <tr key={area}>
                  <th>{t(`ws.areas.${area}`)}</th>
                  {LEVELS.map((level) => (
                    <td key={level}>
                      <label className="ws-switch">
                        <input
                          type="radio"
                          name={`role-${area}`}
                          value={level}
                          checked={form.roles[area] === level}
                          disabled={level === 'can_edit' && !data.can_grant_edit}
                          data-test={`role-${area}-${level}`}
                          onChange={() => setForm({ ...form, roles: { ...form.roles, [area]: level } })}
                        />
                        {t(`ws.roles.${level}`)}
                      </label>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {limitReached && <p className="field-error">{t('ws.setting.editorLimit', { limit: data.editor_limit })}</p>}
          <p className="muted">
            {data.tier === 'team'
              ? t('ws.setting.teamNote', { limit: data.editor_limit, count: data.editor_count })
              : t('ws.setting.basicNote')}
          </p>
        </Modal>
      )}
      {removing && (
        <Confirm
          title={t('ws.setting.removeMember')}
          message={t('ws.setting.removeConfirm', { email: removing })}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const email = removing;
            setRemoving(null);
            void api.post('/authority/delete', { business_plan_id: planId, email }).finally(() => void list.reload());
          }}
        />
      )}
    </section>
  );
}
