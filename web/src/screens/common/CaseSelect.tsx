import { useTranslation } from 'react-i18next';
import { caseLabel } from '../../plan/caseNames';

/** A compact case chooser for the screens that read one case at a time. */
export function CaseSelect({
  cases,
  current,
  onChange,
}: {
  cases: { case_id: number; case_name: string }[];
  current: number | undefined;
  onChange: (caseId: number) => void;
}) {
  const { t } = useTranslation();
  if (cases.length === 0) return null;
  return (
    <label className="field ws-inline-field" data-test="case-select">
      <span>{t('ws.common.case')}</span>
      <select value={current} onChange={(e) => onChange(Number(e.target.value))}>
        {cases.map((c) => (
          <option key={c.case_id} value={c.case_id}>
            {caseLabel(c.case_name, t)}
          </option>
        ))}
      </select>
    </label>
  );
}
