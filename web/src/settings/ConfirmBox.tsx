import type { ReactNode } from 'react';

export interface ConfirmBoxProps {
  /** What the dialog is named by for assistive technology: the action asked for. */
  label: string;
  /** The question and whatever the user should know first. */
  children: ReactNode;
  /** The words of the button that leaves things as they are. */
  keepText: string;
  /** The words of the button that goes ahead. */
  confirmText: string;
  /** A destructive action is drawn as one (red). */
  danger?: boolean;
  /** The going-ahead button's `data-test`. */
  confirmTest?: string;
  busy: boolean;
  onKeep: () => void;
  onConfirm: () => void;
}

/** An inline confirmation of an action of the settings (a plan change, a cancellation, a restore). */
export function ConfirmBox(props: ConfirmBoxProps) {
  return (
    <div className="billing-confirm" role="alertdialog" aria-label={props.label}>
      {props.children}
      <div className="form-actions">
        <button type="button" className="button button-ghost" disabled={props.busy} onClick={props.onKeep}>
          {props.keepText}
        </button>
        <button
          type="button"
          className={props.danger ? 'button button-danger' : 'button button-primary'}
          data-test={props.confirmTest}
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.confirmText}
        </button>
      </div>
    </div>
  );
}
