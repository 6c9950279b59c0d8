import type { HistoryEntry } from '@topline/contract';
import { useTranslation } from 'react-i18next';
import { keyText, placeText, valueText } from './historyText';

/**
 * One recorded item: its kind, where it sits, the field and old → new; the one entry that stands for what the user
 * may not see says only that.
 */
export function HistoryItemLine({
  item,
  plan,
}: {
  item: HistoryEntry;
  plan: { start_year: number; start_month: number };
}) {
  const { t, i18n } = useTranslation();
  if (item.hidden) {
    return (
      <li className="history-item" data-test="history-item" data-hidden="true">
        <span className="history-hidden muted">{t('history.hidden')}</span>
      </li>
    );
  }
  const words = { t, has: (key: string) => i18n.exists(key) };
  const place = placeText(item, plan, words);
  return (
    <li
      className="history-item"
      data-test="history-item"
      data-kind={item.kind}
      data-key={item.key}
      data-op={item.op}
      data-hidden="false"
    >
      <span className="history-kind">{t(`history.kinds.${item.kind}`)}</span>
      {place && <span className="history-place">{place}</span>}
      <span className="history-key">{keyText(item, words)}</span>
      <span className="history-values">
        <span className={item.old === null ? 'history-old history-none' : 'history-old'} data-test="history-old">
          {valueText(item.old, item.key, words, item.kind)}
        </span>
        <span aria-hidden="true"> → </span>
        <span className="visually-hidden">{t('history.becomes')}</span>
        <span className="history-new" data-test="history-new">
          {valueText(item.new, item.key, words, item.kind)}
        </span>
      </span>
    </li>
  );
}
