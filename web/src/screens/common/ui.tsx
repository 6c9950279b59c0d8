import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShell } from '../../shell/ShellContext';
import './messages';
import '../../styles/screens/common.css';

/** Turns the shell's loading veil off once the screen's first answer is in. */
export function useScreenReady(ready: boolean): void {
  const { setLoading } = useShell();
  useEffect(() => {
    if (!ready) return;
    // After the shell's own effect, which turns loading on when the screen mounts.
    const timer = window.setTimeout(() => setLoading(false), 0);
    return () => window.clearTimeout(timer);
  }, [ready, setLoading]);
}

export function Modal({
  title,
  onClose,
  children,
  footer,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="ws-modal-backdrop">
      <div className="ws-modal" role="dialog" aria-modal="true" aria-label={title} data-test={testId}>
        <header className="modal-header">
          <h2>{title}</h2>
          <button type="button" className="modal-close" aria-label={t('common.close')} onClick={onClose}>
            ×
          </button>
        </header>
        <div className="ws-modal-body">{children}</div>
        {footer && <footer className="ws-modal-footer">{footer}</footer>}
      </div>
    </div>
  );
}

/** Asks before something is deleted or discarded. */
export function Confirm({
  title,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  message: string;
  confirmLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      onClose={onCancel}
      testId="confirm"
      footer={
        <>
          <button type="button" className="button button-ghost" onClick={onCancel}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button button-primary" data-test="confirm-ok" onClick={onConfirm}>
            {confirmLabel ?? t('ws.common.ok')}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </Modal>
  );
}

export function Tabs<K extends string>({
  tabs,
  current,
  onChange,
  label,
  testId,
}: {
  tabs: { key: K; label: string; disabled?: boolean }[];
  current: K;
  onChange: (key: K) => void;
  label: string;
  testId?: string;
}) {
  return (
    <div className="ws-tabs" role="tablist" aria-label={label} data-test={testId}>
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === current}
          className={tab.key === current ? 'ws-tab active' : 'ws-tab'}
          disabled={tab.disabled}
          onClick={() => onChange(tab.key)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** A read-only hint for can_view members. */
export function ViewOnlyNote({ show }: { show: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <p className="ws-view-only" data-test="view-only">
      {t('ws.common.viewOnly')}
    </p>
  );
}
