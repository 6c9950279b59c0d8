/**
 * The spreadsheet modal of the monthly P&L (working-screens.md sections 2, 4 and 8): the owner's Google Sheets round
 * trip. Three states: not connected (a description, a help link, Sign in with Google), connected without a sheet
 * (the account, Create), connected with a sheet (its name and link, Export over it, Import, the time since it last
 * changed, Disconnect with a notice). Create, export and import show a loading state on their button; every result
 * message goes after 3 seconds. Without a Google client on the server the modal says the connection is not
 * configured.
 */
import type { DataOf } from '@topline/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, api } from '../api/client';
import { useNewest } from '../lib/newest';
import type { SavedAnswer } from '../plan/engineSession';
import { Modal } from '../screens/common/ui';
import '../screens/common/messages';
import './spreadsheet.css';
import { DRIVE_PLAN_KEY, type SpreadsheetReturn } from './driveReturn';
import { timeSince } from './timeSince';

type Info = DataOf<'spreadsheetRetrieve'>;
type Busy = 'signin' | 'create' | 'export' | 'import' | 'disconnect' | null;
interface Result {
  kind: 'success' | 'error';
  text: string;
}

/** How long a result message stays (spec section 2). */
const RESULT_MS = 3000;
const HELP_URL = 'https://support.google.com/docs/answer/6000292';

/**
 * The button that opens the modal, shown to the plan's owner only. It opens by itself when the browser comes back
 * from Google's consent page, with the connection's result.
 */
export function SpreadsheetButton({
  planId,
  isOwner,
  onImported,
}: {
  planId: number;
  isOwner: boolean;
  /** The actuals changed: the screen reloads its data. */
  /** After an import that changed something, with its answer (the change set the browser's workbook follows). */
  onImported: (answer: SavedAnswer) => void;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [initial, setInitial] = useState<Result | null>(null);

  useEffect(() => {
    const back = (location.state as Partial<SpreadsheetReturn> | null)?.spreadsheet;
    if (!back) return;
    setInitial(
      back.connected
        ? { kind: 'success', text: t('ws.spreadsheet.result.connected') }
        : { kind: 'error', text: back.message },
    );
    setOpen(true);
    // Shown once: a reload of the page does not show it again.
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [location.state, location.pathname, location.search, navigate, t]);

  if (!isOwner) return null;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        data-test="spreadsheet-open"
        onClick={() => {
          setInitial(null);
          setOpen(true);
        }}
      >
        {t('ws.spreadsheet.button')}
      </button>
      {open && (
        <SpreadsheetModal planId={planId} initial={initial} onClose={() => setOpen(false)} onImported={onImported} />
      )}
    </>
  );
}

export function SpreadsheetModal({
  planId,
  initial,
  onClose,
  onImported,
}: {
  planId: number;
  initial: Result | null;
  onClose: () => void;
  /** After an import that changed something, with its answer (the change set the browser's workbook follows). */
  onImported: (answer: SavedAnswer) => void;
}) {
  const { t, i18n } = useTranslation();
  const [info, setInfo] = useState<Info | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [result, setResult] = useState<Result | null>(initial);
  const [confirming, setConfirming] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback((next: Result) => {
    setResult(next);
  }, []);
  // Every result message goes after 3 seconds.
  useEffect(() => {
    if (!result) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setResult(null), RESULT_MS);
    return () => clearTimeout(timer.current);
  }, [result]);

  // Loads overlap (the modal opened, a reload after each action): only the newest one's answer is shown.
  const loads = useNewest();
  const load = useCallback(async () => {
    const current = loads.begin();
    try {
      const answer = await api.get('/spreadsheet/retrieve', { query: { business_plan_id: planId }, quiet: true });
      if (current()) setInfo(answer.data);
    } catch (error) {
      if (!current()) return;
      show({ kind: 'error', text: error instanceof ApiError ? error.message : t('ws.spreadsheet.result.failed') });
    }
  }, [planId, show, t, loads]);
  useEffect(() => {
    void load();
  }, [load]);

  const signIn = async () => {
    setBusy('signin');
    try {
      const answer = await api.get('/spreadsheet/auth_url', { query: { business_plan_id: planId }, quiet: true });
      // The callback page reads the plan back from here once Google sends the browser back.
      window.localStorage.setItem(DRIVE_PLAN_KEY, String(planId));
      window.location.assign(answer.data.auth_url);
    } catch (error) {
      setBusy(null);
      show({ kind: 'error', text: error instanceof ApiError ? error.message : t('ws.spreadsheet.result.failed') });
    }
  };

  /** Create, export or import: a loading button, then the result; failures say "Processing failed" (spec 8). */
  const run = async (kind: 'create' | 'export' | 'import') => {
    setBusy(kind);
    try {
      if (kind === 'import') {
        const answer = await api.post('/spreadsheet/import', { business_plan_id: planId }, { quiet: true });
        const count = answer.body.data.changes.length;
        show({
          kind: 'success',
          text: count === 0 ? t('ws.spreadsheet.result.upToDate') : t('ws.spreadsheet.result.imported', { count }),
        });
        if (count > 0) onImported(answer);
      } else {
        await api.post(
          kind === 'create' ? '/spreadsheet/create' : '/spreadsheet/update',
          { business_plan_id: planId },
          {
            quiet: true,
          },
        );
        show({ kind: 'success', text: t(`ws.spreadsheet.result.${kind === 'create' ? 'created' : 'exported'}`) });
      }
    } catch (error) {
      // An import refused for its cells names them; anything else is the spec's one message.
      const cells = kind === 'import' && error instanceof ApiError && error.status === 400 ? error.message : '';
      show({
        kind: 'error',
        text: cells ? `${t('ws.spreadsheet.result.failed')}\n${cells}` : t('ws.spreadsheet.result.failed'),
      });
    } finally {
      setBusy(null);
      await load();
    }
  };

  const disconnect = async () => {
    setConfirming(false);
    setBusy('disconnect');
    try {
      await api.post(
        '/spreadsheet/disconnect',
        {
          business_plan_id: planId,
          ...(info?.spreadsheet ? { spreadsheet_id: info.spreadsheet.id } : {}),
        },
        { quiet: true },
      );
      show({ kind: 'success', text: t('ws.spreadsheet.result.disconnected') });
    } catch (error) {
      show({ kind: 'error', text: error instanceof ApiError ? error.message : t('ws.spreadsheet.result.failed') });
    } finally {
      setBusy(null);
      await load();
    }
  };

  const account = info?.google_account ?? null;
  const sheet = info?.spreadsheet ?? null;
  const state = !info
    ? 'loading'
    : !info.configured
      ? 'unconfigured'
      : !account
        ? 'signedOut'
        : sheet
          ? 'sheet'
          : 'noSheet';

  return (
    <Modal title={t('ws.spreadsheet.title')} onClose={onClose} testId="spreadsheet-modal">
      <div className="sheet-modal" data-state={state}>
        {state === 'loading' && <p className="sheet-muted">{t('ws.spreadsheet.loading')}</p>}
        {state === 'unconfigured' && (
          <p className="sheet-note" data-test="spreadsheet-unconfigured">
            {t('ws.spreadsheet.notConfigured')}
          </p>
        )}
        {state === 'signedOut' && (
          <>
            <p>{t('ws.spreadsheet.description')}</p>
            <p>
              <a href={HELP_URL} target="_blank" rel="noreferrer">
                {t('ws.spreadsheet.help')}
              </a>
            </p>
            <GoogleButton busy={busy === 'signin'} onClick={signIn} label={t('ws.spreadsheet.signIn')} />
          </>
        )}
        {account && (
          <div className="sheet-account" data-test="spreadsheet-account">
            {account.picture ? (
              <img src={account.picture} alt="" width={40} height={40} />
            ) : (
              <span className="sheet-avatar" />
            )}
            <div>
              <div className="sheet-account-name">{account.name}</div>
              <div className="sheet-muted">{account.email}</div>
            </div>
          </div>
        )}
        {account?.reconnect && (
          <div className="sheet-note" data-test="spreadsheet-reconnect">
            <p>{t('ws.spreadsheet.reconnectNote')}</p>
            <GoogleButton busy={busy === 'signin'} onClick={signIn} label={t('ws.spreadsheet.reconnect')} />
          </div>
        )}
        {state === 'noSheet' && (
          <>
            <p className="sheet-muted">{t('ws.spreadsheet.noSheet')}</p>
            <LoadingButton
              testId="spreadsheet-create"
              primary
              busy={busy === 'create'}
              disabled={busy !== null || account?.reconnect === true}
              onClick={() => run('create')}
              label={t('ws.spreadsheet.create')}
            />
          </>
        )}
        {state === 'sheet' && sheet && (
          <>
            <div className="sheet-file">
              <span className="sheet-file-name" data-test="spreadsheet-name">
                {sheet.name}
              </span>
              <a href={sheet.url} target="_blank" rel="noreferrer" data-test="spreadsheet-link">
                {t('ws.spreadsheet.open')}
              </a>
            </div>
            {sheet.modified && (
              <p className="sheet-muted" data-test="spreadsheet-modified">
                {t('ws.spreadsheet.modified', { ago: timeSince(sheet.modified, i18n.language) })}
              </p>
            )}
            <div className="sheet-actions">
              <LoadingButton
                testId="spreadsheet-export"
                busy={busy === 'export'}
                disabled={busy !== null || account?.reconnect === true}
                onClick={() => run('export')}
                label={t('ws.spreadsheet.export')}
              />
              <LoadingButton
                testId="spreadsheet-import"
                primary
                busy={busy === 'import'}
                disabled={busy !== null || account?.reconnect === true}
                onClick={() => run('import')}
                label={t('ws.spreadsheet.import')}
              />
            </div>
          </>
        )}
        {account && (
          <div className="sheet-disconnect">
            {confirming ? (
              <div className="sheet-note" data-test="spreadsheet-disconnect-notice">
                <p>{t('ws.spreadsheet.disconnectNotice')}</p>
                <button type="button" className="button button-small" onClick={() => setConfirming(false)}>
                  {t('common.cancel')}
                </button>
                <button
                  type="button"
                  className="button button-small button-danger"
                  data-test="spreadsheet-disconnect-confirm"
                  onClick={disconnect}
                >
                  {t('ws.spreadsheet.disconnect')}
                </button>
              </div>
            ) : (
              <button
                type="button"
                className="button button-small"
                data-test="spreadsheet-disconnect"
                disabled={busy !== null}
                onClick={() => setConfirming(true)}
              >
                {t('ws.spreadsheet.disconnect')}
              </button>
            )}
          </div>
        )}
        {result && (
          <p
            className={`sheet-result sheet-result-${result.kind}`}
            role={result.kind === 'error' ? 'alert' : 'status'}
            data-test="spreadsheet-result"
          >
            {result.text}
          </p>
        )}
      </div>
    </Modal>
  );
}

function GoogleButton({ busy, onClick, label }: { busy: boolean; onClick: () => void; label: string }) {
  return (
    <button
      type="button"
      className="button sheet-google"
      data-test="spreadsheet-signin"
      disabled={busy}
      aria-busy={busy}
      onClick={onClick}
    >
      <span className="sheet-google-mark" aria-hidden="true">
        G
      </span>
      {label}
    </button>
  );
}

function LoadingButton({
  testId,
  busy,
  disabled,
  onClick,
  label,
  primary = false,
}: {
  testId: string;
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
  label: string;
  primary?: boolean;
}) {
  return (
    <button
      type="button"
      className={`button button-small${primary ? ' button-primary' : ''}${busy ? ' is-loading' : ''}`}
      data-test={testId}
      disabled={disabled}
      aria-busy={busy}
      onClick={onClick}
    >
      {busy && <span className="sheet-spinner" aria-hidden="true" />}
      {label}
    </button>
  );
}
