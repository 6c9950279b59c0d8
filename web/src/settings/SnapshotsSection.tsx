import { ApiError, SNAPSHOT_NAME_MAX, type Snapshot } from '@topline/contract';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client';
import { useNotice } from '../notices';
import type { SavedAnswer } from '../plan/engineSession';
import { saveFile } from '../screens/common/SpreadsheetDownloads';
import { ConfirmBox } from './ConfirmBox';
import { changeTime } from './historyText';

interface Rights {
  can_edit: boolean;
  can_delete: boolean;
  can_restore: boolean;
  can_download: boolean;
}

/** A refused call's words (the limit of snapshots, a tier lock, a refusal by role say why). */
const refusalOf = (error: unknown, fallback: string): string =>
  error instanceof ApiError ? error.message || fallback : fallback;

/**
 * The plan's snapshots, above its history: saved under a name (a plan of record), listed with who saved them and
 * when, renamed, deleted, downloaded as XLSX and restored, each as the caller's rights allow. A restore is a change
 * of the history, so the panel reads the history again after one (`onRestored`).
 */
export function SnapshotsSection({
  planId,
  onRestored,
}: {
  planId: number;
  /** After a restore, with its answer (the change set the browser's workbook follows). */
  onRestored: (answer: SavedAnswer) => Promise<void>;
}) {
  const { t } = useTranslation();
  const notify = useNotice();
  const [snapshots, setSnapshots] = useState<Snapshot[] | null>(null);
  const [rights, setRights] = useState<Rights | null>(null);
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [confirming, setConfirming] = useState<{ kind: 'delete' | 'restore'; snapshot: Snapshot } | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const answer = await api.get('/snapshot/list', { query: { business_plan_id: planId }, quiet: true });
      const { snapshots: list, ...can } = answer.data;
      setSnapshots(list);
      setRights(can);
    } catch (error) {
      setProblem(refusalOf(error, t('snapshots.failed')));
    }
  }, [planId, t]);

  useEffect(() => {
    void load();
  }, [load]);

  const run = async (body: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await body();
    } catch (error) {
      setProblem(refusalOf(error, t('snapshots.failed')));
    } finally {
      setBusy(false);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.post('/snapshot/create', { business_plan_id: planId, name }, { quiet: true });
      setName('');
      await load();
    });
  };

  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (!renaming) return;
    void run(async () => {
      const body = { business_plan_id: planId, snapshot_id: renaming.id, name: renaming.name };
      await api.post('/snapshot/rename', body, { quiet: true });
      setRenaming(null);
      await load();
    });
  };

  const confirm = () =>
    void run(async () => {
      if (!confirming) return;
      const { kind, snapshot } = confirming;
      const body = { business_plan_id: planId, snapshot_id: snapshot.id };
      let restored: SavedAnswer | undefined;
      if (kind === 'delete') await api.post('/snapshot/delete', body, { quiet: true });
      else restored = await api.post('/snapshot/restore', body, { quiet: true });
      setConfirming(null);
      if (restored) {
        notify({
          kind: 'success',
          title: t('common.success'),
          message: t('snapshots.restored', { name: snapshot.name }),
        });
        await onRestored(restored);
      }
      await load();
    });

  const download = (snapshot: Snapshot) =>
    void run(() =>
      saveFile('/snapshot/xlsx', { business_plan_id: planId, snapshot_id: snapshot.id }, `${snapshot.name}.xlsx`),
    );

  const problemLine = problem && (
    <p className="form-message error" role="alert" data-test="snapshot-error">
      {problem}
    </p>
  );
  if (!snapshots || !rights) return <section className="snapshots">{problemLine}</section>;
  return (
    <section className="snapshots" data-test="snapshots">
      <h3>{t('snapshots.title')}</h3>
      <p className="muted">{t('snapshots.intro')}</p>
      {rights.can_edit && (
        <form className="snapshot-save" onSubmit={save}>
          <input
            type="text"
            data-test="snapshot-name"
            aria-label={t('snapshots.name')}
            placeholder={t('snapshots.namePlaceholder')}
            maxLength={SNAPSHOT_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <button
            type="submit"
            className="button button-primary button-small"
            data-test="snapshot-save"
            disabled={busy || !name.trim()}
          >
            {t('snapshots.save')}
          </button>
        </form>
      )}
      {!confirming && problemLine}
      {snapshots.length === 0 ? (
        <p className="muted" data-test="snapshot-empty">
          {t('snapshots.empty')}
        </p>
      ) : (
        <ul className="snapshot-list" data-test="snapshot-list">
          {snapshots.map((snapshot) => (
            <li key={snapshot.id} data-test="snapshot">
              {renaming?.id === snapshot.id ? (
                <form className="snapshot-save" onSubmit={rename}>
                  <input
                    type="text"
                    data-test="snapshot-rename-name"
                    aria-label={t('snapshots.name')}
                    maxLength={SNAPSHOT_NAME_MAX}
                    value={renaming.name}
                    onChange={(e) => setRenaming({ id: snapshot.id, name: e.target.value })}
                  />
                  <button
                    type="submit"
                    className="button button-primary button-small"
                    data-test="snapshot-rename-save"
                    disabled={busy}
                  >
                    {t('snapshots.save')}
                  </button>
                  <button type="button" className="button button-ghost button-small" onClick={() => setRenaming(null)}>
                    {t('common.cancel')}
                  </button>
                </form>
              ) : (
                <span className="snapshot-name" data-test="snapshot-title">
                  {snapshot.name}
                </span>
              )}
              <span className="muted">
                {t('snapshots.savedBy', {
                  by: snapshot.created_by ?? t('history.unknownUser'),
                  date: changeTime(snapshot.created_at),
                })}
              </span>
              <span className="history-change-actions">
                {rights.can_download && (
                  <button
                    type="button"
                    className="link-button"
                    data-test="snapshot-download"
                    disabled={busy}
                    onClick={() => download(snapshot)}
                  >
                    {t('snapshots.download')}
                  </button>
                )}
                {rights.can_edit && (
                  <button
                    type="button"
                    className="link-button"
                    data-test="snapshot-rename"
                    disabled={busy}
                    onClick={() => setRenaming({ id: snapshot.id, name: snapshot.name })}
                  >
                    {t('snapshots.rename')}
                  </button>
                )}
                {rights.can_restore && (
                  <button
                    type="button"
                    className="link-button"
                    data-test="snapshot-restore"
                    disabled={busy}
                    onClick={() => setConfirming({ kind: 'restore', snapshot })}
                  >
                    {t('snapshots.restore')}
                  </button>
                )}
                {rights.can_delete && (
                  <button
                    type="button"
                    className="link-button"
                    data-test="snapshot-delete"
                    disabled={busy}
                    onClick={() => setConfirming({ kind: 'delete', snapshot })}
                  >
                    {t('snapshots.delete')}
                  </button>
                )}
              </span>
              {confirming?.snapshot.id === snapshot.id && (
                <ConfirmBox
                  label={t(`snapshots.${confirming.kind}`)}
                  keepText={t('common.cancel')}
                  confirmText={t(`snapshots.${confirming.kind}`)}
                  danger
                  confirmTest="snapshot-confirm"
                  busy={busy}
                  onKeep={() => setConfirming(null)}
                  onConfirm={confirm}
                >
                  <p>{t(`snapshots.${confirming.kind}Confirm`, { name: snapshot.name })}</p>
                  {problemLine}
                </ConfirmBox>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
