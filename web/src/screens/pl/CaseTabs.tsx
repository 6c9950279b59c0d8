import { MAX_CASES, NAME_MAX } from '@topline/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CASE_RATE_RULE, readTyped, refusalMessage } from '../../format/typed';
import { caseLabel } from '../../plan/caseNames';
import { Confirm, Modal } from '../common/ui';
import type { PlCase } from './types';

/** Case tabs with add (below 3, not view-only), rename and delete (more than one case) (working-screens.md 4, 5). */
export function CaseTabs({
  cases,
  current,
  onSelect,
  editable,
  onAdd,
  onRename,
  onDelete,
}: {
  cases: PlCase[];
  current: number;
  onSelect: (caseId: number) => void;
  editable: boolean;
  onAdd: (name: string, rate: number) => Promise<void>;
  onRename: (caseId: number, name: string) => Promise<void>;
  onDelete: (caseId: number) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'add' | 'rename' | 'delete' | null>(null);
  const [name, setName] = useState('');
  const [rate, setRate] = useState('');
  // The rate as typed, read by the one typed-number rule: refused with a message, never stripped.
  const typedRate = readTyped(rate, CASE_RATE_RULE);
  const rateValue = typedRate.ok ? typedRate.value : null;
  const rateProblem = rate.trim() !== '' && !typedRate.ok ? refusalMessage(typedRate, CASE_RATE_RULE, t) : null;
  const currentCase = cases.find((c) => c.case_id === current);
  const close = () => setDialog(null);

  return (
    <div className="ws-case-tabs" data-test="case-tabs">
      <div className="ws-case-tab-row">
        <div className="ws-tabs" role="tablist" aria-label={t('ws.pl.cases')}>
          {cases.map((c) => (
            <button
              key={c.case_id}
              type="button"
              role="tab"
              aria-selected={c.case_id === current}
              className={c.case_id === current ? 'ws-tab active' : 'ws-tab'}
              onClick={() => onSelect(c.case_id)}
            >
              {caseLabel(c.case_name, t)} <small className="muted">×{c.case_rate}</small>
            </button>
          ))}
        </div>
        {editable && cases.length < MAX_CASES && (
          <button
            type="button"
            className="ws-tab ws-tab-add"
            data-test="case-add"
            onClick={() => {
              setName('');
              setRate('');
              setDialog('add');
            }}
          >
            + {t('ws.pl.addCase')}
          </button>
        )}
      </div>
      {editable && currentCase && (
        <div className="ws-inline-actions">
          <button
            type="button"
            className="button button-small button-ghost"
            data-test="case-rename"
            onClick={() => {
              setName(currentCase.case_name);
              setDialog('rename');
            }}
          >
            {t('ws.pl.renameCase')}
          </button>
          {cases.length > 1 && (
            <button
              type="button"
              className="button button-small button-ghost"
              data-test="case-delete"
              onClick={() => setDialog('delete')}
            >
              {t('ws.pl.deleteCase')}
            </button>
          )}
        </div>
      )}
      {dialog === 'add' && (
        <Modal
          title={t('ws.pl.addCase')}
          onClose={close}
          testId="case-add-modal"
          footer={
            <button
              type="button"
              className="button button-primary"
              disabled={name.trim() === '' || rateValue === null}
              onClick={() => {
                if (rateValue !== null) void onAdd(name.trim(), rateValue).finally(close);
              }}
            >
              {t('ws.common.add')}
            </button>
          }
        >
          <label className="field">
            <span>{t('ws.pl.caseName')}</span>
            <input value={name} maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="field">
            <span>{t('ws.pl.caseRate')}</span>
            <input
              value={rate}
              inputMode="decimal"
              aria-invalid={rateProblem !== null}
              data-test="case-rate"
              onChange={(e) => setRate(e.target.value)}
            />
          </label>
          {rateProblem && (
            <p className="field-error" role="alert" data-test="case-rate-error">
              {rateProblem}
            </p>
          )}
          <p className="muted">{t('ws.pl.caseRateHint')}</p>
        </Modal>
      )}
      {dialog === 'rename' && currentCase && (
        <Modal
          title={t('ws.pl.renameCase')}
          onClose={close}
          footer={
            <button
              type="button"
              className="button button-primary"
              disabled={name.trim() === ''}
              onClick={() => {
                void onRename(currentCase.case_id, name.trim()).finally(close);
              }}
            >
              {t('ws.common.save')}
            </button>
          }
        >
          <label className="field">
            <span>{t('ws.pl.caseName')}</span>
            <input value={name} maxLength={NAME_MAX} onChange={(e) => setName(e.target.value)} />
          </label>
        </Modal>
      )}
      {dialog === 'delete' && currentCase && (
        <Confirm
          title={t('ws.pl.deleteCase')}
          message={t('ws.pl.deleteCaseConfirm', { name: caseLabel(currentCase.case_name, t) })}
          onCancel={close}
          onConfirm={() => {
            void onDelete(currentCase.case_id).finally(close);
          }}
        />
      )}
    </div>
  );
}
