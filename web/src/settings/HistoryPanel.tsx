import {
  ApiError,
  type HistoryAnswer,
  type HistoryChange,
  type HistoryCompareAnswer,
  type HistoryPoint,
  type PlanListItem,
} from '@topline/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { useNewest } from '../lib/newest';
import { useNotice } from '../notices';
import { levelOf } from '../plan/access';
import type { SavedAnswer } from '../plan/engineSession';
import { ConfirmBox } from './ConfirmBox';
import '../screens/common/messages';
import { useSession } from '../session';
import { Loading } from '../shell/Loading';
import { HistoryItemLine } from './HistoryItemLine';
import { HistoryCompareView, HistoryPointView } from './HistoryPoints';
import { actionText, changeTime } from './historyText';
import { SnapshotsSection } from './SnapshotsSection';
import './history.css';

/** When a change was committed, in local time. */
const ChangeTime = ({ at }: { at: string }) => (
  <time dateTime={at} data-test="history-when">
    {changeTime(at)}
  </time>
);

type Result = { kind: 'compare'; answer: HistoryCompareAnswer['data'] } | { kind: 'point'; point: HistoryPoint };

/** A refused call's words, shown in the panel (a tier lock or a refusal by role says why). */
const refusalOf = (error: unknown, fallback: string): string =>
  error instanceof ApiError ? [error.title, error.message].filter(Boolean).join(': ') : fallback;

/**
 * The History tab (issue 16): the plan's changes, newest first, a page at a time (who, when, which call, and old →
 * new of each item); two changes, or one and now, compared (the inputs that differ and both annual P&Ls); the P&L
 * right after one change; and, for those who may, a restore to that moment after a confirmation, after which the
 * shell reads the plan again.
 */
export function HistoryPanel({
  plan,
  onPlanChanged,
}: {
  plan: PlanListItem;
  onPlanChanged: (answer: SavedAnswer) => void;
}) {
  const { t, i18n } = useTranslation();
  const notify = useNotice();
  const { refresh } = useSession();
  const planId = plan.business_plan_id;
  const [changes, setChanges] = useState<HistoryChange[]>([]);
  const [nextCursor, setNextCursor] = useState<number | null>(null);
  const [canRestore, setCanRestore] = useState(false);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<HistoryChange | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const words = { t, has: (key: string) => i18n.exists(key) };
  // A past P&L and a comparison show the P&L area.
  const seesPl = levelOf(plan, 'pl') !== 'no_access';
  const resultBox = useRef<HTMLDivElement>(null);
  // A result asked for from far down the list is brought into view, within the modal's panel only.
  useEffect(() => {
    const box = resultBox.current;
    const panel = box?.closest('.modal-panel');
    if (!result || !box || !panel) return;
    const above = box.getBoundingClientRect().top - panel.getBoundingClientRect().top;
    if (above < 0) panel.scrollTop += above - 16;
  }, [result]);

  // Loads overlap (the panel opened, a retry, a reload after a restore): only the newest one's answer is shown, and an
  // older page read before a reload is not appended to the list read since.
  const loads = useNewest();
  /**
   * Reads the newest page (after a restore too), then shown as ready, or the page older than `cursor`, appended; an
   * answer that a newer read of the newest page has overtaken is left out, and so is its refusal.
   */
  const load = useCallback(
    async (cursor: number | null) => {
      const current = cursor === null ? loads.begin() : loads.join();
      let answer: HistoryAnswer;
      try {
        answer = await api.get('/history', {
          query: { business_plan_id: planId, ...(cursor === null ? {} : { cursor }) },
          quiet: true,
        });
      } catch (error) {
        if (current()) throw error;
        return;
      }
      if (!current()) return;
      const data = answer.data;
      setChanges((shown) => (cursor === null ? data.changes : [...shown, ...data.changes]));
      setNextCursor(data.next_cursor);
      setCanRestore(data.can_restore);
      if (cursor === null) setState('ready');
    },
    [planId, loads],
  );

  const loadFirst = useCallback(async () => {
    setState('loading');
    try {
      await load(null);
    } catch (error) {
      setProblem(refusalOf(error, t('history.failed')));
      setState('failed');
    }
  }, [load, t]);

  useEffect(() => {
    void loadFirst();
  }, [loadFirst]);

  const loadOlder = async () => {
    if (nextCursor === null) return;
    setLoadingOlder(true);
    try {
      await load(nextCursor);
    } catch (error) {
      setProblem(refusalOf(error, t('history.failed')));
    } finally {
      setLoadingOlder(false);
    }
  };

  /** Runs a call of the panel: one at a time, its refusal shown in the panel. */
  const run = async (call: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await call();
    } catch (error) {
      setProblem(refusalOf(error, t('errors.unexpected')));
    } finally {
      setBusy(false);
    }
  };

  const toggle = (id: number) =>
    setSelected((chosen) => (chosen.includes(id) ? chosen.filter((entry) => entry !== id) : [...chosen, id].slice(-2)));

  // One change is compared with now: the newest change.
  const newest = changes[0]?.id ?? null;
  const pair = selected.length === 1 && newest !== null ? [selected[0] ?? newest, newest] : selected;
  const [from, to] = [Math.min(...pair), Math.max(...pair)];
  const canCompare = pair.length === 2 && from !== to;

  const compare = () =>
    run(async () => {
      const answer = await api.get('/history/compare', {
        query: { business_plan_id: planId, from, to },
        quiet: true,
      });
      setResult({ kind: 'compare', answer: answer.data });
    });

  const viewPoint = (change: HistoryChange) =>
    run(async () => {
      const answer = await api.get('/history/plan', {
        query: { business_plan_id: planId, at: change.id },
        quiet: true,
      });
      setResult({ kind: 'point', point: answer.data });
    });

  const restore = (change: HistoryChange) =>
    run(async () => {
      const answer = await api.post('/history/restore', { business_plan_id: planId, at: change.id }, { quiet: true });
      setConfirming(null);
      setSelected([]);
      setResult(null);
      notify({
        kind: 'success',
        title: t('common.success'),
        message: t('history.restored', { date: changeTime(change.at) }),
      });
      onPlanChanged(answer);
      await Promise.all([load(null), refresh()]);
    });

  if (state === 'loading') return <Loading />;
  if (state === 'failed') {
    return (
      <div className="history-panel" data-test="history-panel">
        <p className="form-message error" data-test="history-error">
          {problem}
        </p>
        <button type="button" className="button button-ghost button-small" onClick={() => void loadFirst()}>
          {t('history.retry')}
        </button>
      </div>
    );
  }

  const problemLine = problem && (
    <p className="form-message error" role="alert" data-test="history-error">
      {problem}
    </p>
  );
  // A snapshot's restore is a change of the history: the shell and the list read the plan again, as after a restore.
  const afterSnapshotRestore = async (answer: SavedAnswer) => {
    onPlanChanged(answer);
    await Promise.all([load(null), refresh()]);
  };
  const dateOf = (id: number | null) => {
    const change = changes.find((entry) => entry.id === id);
    return change ? changeTime(change.at) : `#${id}`;
  };

  return (
    <div className="history-panel" data-test="history-panel">
      <SnapshotsSection planId={planId} onRestored={afterSnapshotRestore} />
      <p className="muted">{t('history.intro')}</p>
      {seesPl && (
        <div className="history-toolbar">
          <button
            type="button"
            className="button button-primary button-small"
            data-test="history-compare"
            disabled={busy || !canCompare}
            onClick={() => void compare()}
          >
            {t('history.compare')}
          </button>
          <span className="muted" data-test="history-selection">
            {canCompare
              ? t('history.comparing', {
                  from: dateOf(from),
                  to: selected.length === 1 ? t('history.now') : dateOf(to),
                })
              : t('history.selectHint')}
          </span>
        </div>
      )}
      {!confirming && problemLine}
      {result && (
        <div className="history-result-box" ref={resultBox}>
          <button
            type="button"
            className="button button-ghost button-small history-result-close"
            onClick={() => setResult(null)}
          >
            {t('common.close')}
          </button>
          {result.kind === 'compare' ? (
            <HistoryCompareView answer={result.answer} plan={plan} />
          ) : (
            <HistoryPointView point={result.point} />
          )}
        </div>
      )}
      {changes.length === 0 ? (
        <p className="muted">{t('history.empty')}</p>
      ) : (
        <ol className="history-list" data-test="history-list">
          {changes.map((change) => (
            <li key={change.id} className="history-change" data-test="history-change" data-change-id={change.id}>
              <div className="history-change-head">
                {seesPl ? (
                  <label className="history-select">
                    <input
                      type="checkbox"
                      data-test="history-select"
                      checked={selected.includes(change.id)}
                      onChange={() => toggle(change.id)}
                      aria-label={t('history.select', { date: changeTime(change.at) })}
                    />
                    <ChangeTime at={change.at} />
                  </label>
                ) : (
                  <ChangeTime at={change.at} />
                )}
                {/* A change the user may see nothing of says neither who nor which call. */}
                {(change.by !== null || change.action !== null) && (
                  <span className="history-by" data-test="history-by">
                    {change.by ?? t('history.unknownUser')}
                  </span>
                )}
                <span className="history-action" data-test="history-action" data-action={change.action ?? ''}>
                  {actionText(change.action, words)}
                </span>
                {change.restored_from !== null && (
                  <span className="muted">{t('history.restoredFrom', { date: dateOf(change.restored_from) })}</span>
                )}
                <span className="history-change-actions">
                  {seesPl && (
                    <button
                      type="button"
                      className="link-button"
                      data-test="history-view"
                      disabled={busy}
                      onClick={() => void viewPoint(change)}
                    >
                      {t('history.viewPl')}
                    </button>
                  )}
                  {canRestore && change.id !== newest && (
                    <button
                      type="button"
                      className="link-button"
                      data-test="history-restore"
                      disabled={busy}
                      onClick={() => {
                        setProblem(null);
                        setConfirming(change);
                      }}
                    >
                      {t('history.restore')}
                    </button>
                  )}
                </span>
              </div>
              {confirming?.id === change.id && (
                <ConfirmBox
                  label={t('history.restore')}
                  keepText={t('common.cancel')}
                  confirmText={t('history.confirmRestore')}
                  danger
                  confirmTest="history-confirm-restore"
                  busy={busy}
                  onKeep={() => setConfirming(null)}
                  onConfirm={() => void restore(confirming)}
                >
                  <p className="history-confirm-when">{t('history.restoreTo', { date: changeTime(confirming.at) })}</p>
                  <p>{t('history.restoreConfirm')}</p>
                  {problemLine}
                </ConfirmBox>
              )}
              <ul className="history-items">
                {change.items.map((item, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: items of a change have no id; their order is fixed
                  <HistoryItemLine key={index} item={item} plan={plan} />
                ))}
              </ul>
              {change.item_count > change.items.length && (
                <p className="muted history-more" data-test="history-more">
                  {t('history.more', { count: change.item_count - change.items.length })}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {nextCursor !== null && (
        <button
          type="button"
          className="button button-ghost button-small"
          data-test="history-older"
          disabled={loadingOlder}
          onClick={() => void loadOlder()}
        >
          {t('history.loadOlder')}
        </button>
      )}
    </div>
  );
}
