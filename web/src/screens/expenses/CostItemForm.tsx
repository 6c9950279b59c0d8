import { COST_ITEM_NAME_MAX, type CostItemFields } from '@topline/contract';
import { COST_CATEGORIES, type CostGroup } from '@topline/engine/schema';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monthInput, sanitizeNumber } from '../../format/input';
import { Modal } from '../common/ui';
import { type TermProblem, termProblem } from './term';

export { COST_CATEGORIES, type CostGroup };

/** A cost item as the form edits it: the contract's item fields, and its id once it has one. */
export interface CostItemDraft extends CostItemFields {
  cost_id?: number | string;
}

/**
 * Adds or edits a cost item: price at most 6 characters, years at most 4, months 1 to 12 (invalid input reverts).
 * Each of the term's four boxes is labelled; a term that cannot be saved (a box not filled in, or an end before the
 * start) shows the "Input Error" with what is wrong and nothing is sent (working-screens.md section 5).
 */
export function CostItemForm({
  group,
  item,
  defaults,
  onSubmit,
  onClose,
}: {
  group: CostGroup;
  item: CostItemDraft | null;
  defaults: { year: number; month: number };
  onSubmit: (item: CostItemDraft) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(item?.item_title ?? `${group}_${COST_CATEGORIES[group][0]}`);
  const [name, setName] = useState(item?.item_name ?? '');
  const [price, setPrice] = useState(item ? String(item.price) : '');
  const [startYear, setStartYear] = useState(String(item?.start_year ?? defaults.year));
  const [startMonth, setStartMonth] = useState(String(item?.start_month ?? defaults.month));
  const [endYear, setEndYear] = useState(String(item?.end_year ?? defaults.year + 1));
  const [endMonth, setEndMonth] = useState(String(item?.end_month ?? defaults.month));
  const [termError, setTermError] = useState<TermProblem | null>(null);
  const complete = name.trim() !== '' && price !== '';

  const submit = () => {
    const problem = termProblem({ startYear, startMonth, endYear, endMonth });
    if (problem) {
      setTermError(problem);
      return;
    }
    const start = { year: Number(startYear), month: Number(startMonth) };
    const end = { year: Number(endYear), month: Number(endMonth) };
    void onSubmit({
      ...(item?.cost_id !== undefined ? { cost_id: item.cost_id } : {}),
      item_title: title,
      item_name: name.trim(),
      price: Number(price),
      start_year: start.year,
      start_month: start.month,
      end_year: end.year,
      end_month: end.month,
    }).then(onClose);
  };

  const digits = (value: string, max: number) => sanitizeNumber(value, { minus: false }).slice(0, max);

  return (
    <Modal
      title={item ? t('ws.cost.editItem') : t('ws.cost.addItem')}
      onClose={onClose}
      testId="cost-item-form"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button-primary" disabled={!complete} onClick={submit}>
            {t('ws.common.save')}
          </button>
        </>
      }
    >
      <label className="field">
        <span>{t('ws.cost.category')}</span>
        <select value={title} onChange={(e) => setTitle(e.target.value)} name="item_title">
          {COST_CATEGORIES[group].map((c) => (
            <option key={c} value={`${group}_${c}`}>
              {t(`ws.cost.categories.${c}`)}
            </option>
          ))}
        </select>
      </label>
      {title.endsWith('_labor') && <p className="ws-hint">{t('ws.cost.laborHint')}</p>}
      <label className="field">
        <span>{t('ws.cost.itemName')}</span>
        <input name="item_name" value={name} maxLength={COST_ITEM_NAME_MAX} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>{t('ws.cost.price')}</span>
        <input
          name="price"
          value={price}
          maxLength={6}
          inputMode="numeric"
          onChange={(e) => setPrice(digits(e.target.value, 6))}
        />
      </label>
      <div className="ws-term">
        <TermMonth
          which="start"
          year={startYear}
          month={startMonth}
          invalid={termError !== null}
          onYear={(value) => setStartYear(digits(value, 4))}
          onMonth={(value) => setStartMonth(monthInput(value, startMonth))}
        />
        <TermMonth
          which="end"
          year={endYear}
          month={endMonth}
          invalid={termError !== null}
          onYear={(value) => setEndYear(digits(value, 4))}
          onMonth={(value) => setEndMonth(monthInput(value, endMonth))}
        />
      </div>
      {termError && (
        <div className="ws-input-error" role="alert" data-test="term-error">
          <strong>{t('ws.cost.inputError')}</strong>
          <p>{t(termError === 'order' ? 'ws.cost.termError' : 'ws.cost.termIncomplete')}</p>
          <button type="button" className="button button-small" onClick={() => setTermError(null)}>
            {t('ws.common.ok')}
          </button>
        </div>
      )}
    </Modal>
  );
}

/** One end of the term: its year (at most 4 characters) and month (1 to 12) boxes, each labelled. */
function TermMonth({
  which,
  year,
  month,
  invalid,
  onYear,
  onMonth,
}: {
  which: 'start' | 'end';
  year: string;
  month: string;
  invalid: boolean;
  onYear: (value: string) => void;
  onMonth: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="field">
      <legend>{t(`ws.cost.${which}`)}</legend>
      <label className="ws-term-box">
        <span>{t(`ws.cost.${which}Year`)}</span>
        <input
          name={`${which}_year`}
          value={year}
          maxLength={4}
          inputMode="numeric"
          aria-invalid={invalid}
          onChange={(e) => onYear(e.target.value)}
        />
      </label>
      <label className="ws-term-box">
        <span>{t(`ws.cost.${which}Month`)}</span>
        <input
          name={`${which}_month`}
          value={month}
          maxLength={2}
          inputMode="numeric"
          aria-invalid={invalid}
          onChange={(e) => onMonth(e.target.value)}
        />
      </label>
    </fieldset>
  );
}
