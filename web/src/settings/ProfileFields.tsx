import type { ProfileEdit } from '@topline/contract';
import { useTranslation } from 'react-i18next';
import { FieldMessage } from '../lib/FieldMessage';
import { checkName } from '../lib/validation';
import { EMPLOYEES, POSITIONS, STAGES } from '../lib/wizardRules';

export const EMPTY_PROFILE: ProfileEdit = {
  name: '',
  company_name: '',
  position: 'CEO',
  employees: '1-10',
  stage: 'pre-founding',
};

export function profileErrors(profile: ProfileEdit) {
  return {
    name: checkName(profile.name, true),
    company_name: checkName(profile.company_name, true),
  };
}

/** Name, company name, position, employees and stage: the profile panel and wizard step 1. */
export function ProfileFields({ profile, onChange }: { profile: ProfileEdit; onChange: (next: ProfileEdit) => void }) {
  const { t } = useTranslation();
  const errors = profileErrors(profile);
  const set = (key: keyof ProfileEdit, value: string) => onChange({ ...profile, [key]: value });
  return (
    <div className="profile-fields">
      <label className="field">
        <span>{t('profile.name')}</span>
        <input name="name" value={profile.name} onChange={(event) => set('name', event.target.value)} />
      </label>
      {profile.name !== '' && <FieldMessage error={errors.name} field={t('profile.name')} />}
      <label className="field">
        <span>{t('profile.companyName')}</span>
        <input
          name="company_name"
          value={profile.company_name}
          onChange={(event) => set('company_name', event.target.value)}
        />
      </label>
      {profile.company_name !== '' && <FieldMessage error={errors.company_name} field={t('profile.companyName')} />}
      <label className="field">
        <span>{t('profile.position')}</span>
        <select name="position" value={profile.position} onChange={(event) => set('position', event.target.value)}>
          <UnlistedOption value={profile.position} options={POSITIONS} />
          {POSITIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {t(`profile.positions.${option.label}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('profile.employees')}</span>
        <select name="employees" value={profile.employees} onChange={(event) => set('employees', event.target.value)}>
          <UnlistedOption value={profile.employees} options={EMPLOYEES} />
          {EMPLOYEES.map((option) => (
            <option key={option.value} value={option.value}>
              {t(`profile.employeeRanges.${option.label}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t('profile.stage')}</span>
        <select name="stage" value={profile.stage} onChange={(event) => set('stage', event.target.value)}>
          <UnlistedOption value={profile.stage} options={STAGES} />
          {STAGES.map((option) => (
            <option key={option.value} value={option.value}>
              {t(`profile.stages.${option.label}`)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/**
 * A stored choice that is none of the options (never chosen, or an older wording) is shown as it is, so the select
 * shows what a save sends.
 */
function UnlistedOption({ value, options }: { value: string; options: readonly { value: string }[] }) {
  const { t } = useTranslation();
  if (options.some((option) => option.value === value)) return null;
  return <option value={value}>{value === '' ? t('profile.notSet') : value}</option>;
}

/** Display text of a stored profile choice. */
export function choiceLabel(
  t: (key: string) => string,
  kind: 'positions' | 'employeeRanges' | 'stages',
  value: string,
): string {
  const list = kind === 'positions' ? POSITIONS : kind === 'employeeRanges' ? EMPLOYEES : STAGES;
  const found = list.find((option) => option.value === value);
  return found ? t(`profile.${kind}.${found.label}`) : value;
}
