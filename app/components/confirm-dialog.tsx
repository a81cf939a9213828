'use client';

import type { FormEvent, ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { ErrorAlert } from './error-alert';

/**
 * A confirmation before a destructive action: what it changes, the action's error if it failed,
 * and Cancel beside the danger button. With `onSubmit` the body is a form and the danger button
 * submits it (for a confirmation typed into a field); otherwise the button calls `onConfirm`.
 * `confirmVariant="primary"` is for an action that matters but destroys nothing (a plan change).
 */
export function ConfirmDialog({
  open = true,
  onClose,
  title,
  testId,
  description,
  children,
  confirmLabel,
  onConfirm,
  onSubmit,
  confirmDisabled,
  pending,
  loading = pending,
  error,
  errorTitle,
  confirmVariant = 'danger',
  cancelLabel = 'Cancel',
}: {
  open?: boolean;
  onClose: () => void;
  title: string;
  testId: string;
  description: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm?: () => void;
  onSubmit?: (event: FormEvent) => void;
  confirmDisabled?: boolean;
  /** While the action runs: Cancel is disabled. */
  pending: boolean;
  /** The danger button's spinner; the pending state unless it should outlast it (a navigation). */
  loading?: boolean;
  error: unknown;
  errorTitle: string;
  confirmVariant?: 'danger' | 'primary';
  /** The way back, when "Cancel" would not say it ("Stay on this page"). */
  cancelLabel?: string;
}) {
  const body = (
    <>
      {children}
      {error ? <ErrorAlert error={error} fallbackTitle={errorTitle} /> : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={pending}>
          {cancelLabel}
        </Button>
        {onSubmit ? (
          <Button type="submit" variant={confirmVariant} loading={loading} disabled={confirmDisabled}>
            {confirmLabel}
          </Button>
        ) : (
          <Button variant={confirmVariant} loading={loading} disabled={confirmDisabled} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        )}
      </div>
    </>
  );
  return (
    <Dialog open={open} onClose={onClose} title={title} testId={testId} description={description}>
      {onSubmit ? (
        <form onSubmit={onSubmit} className="space-y-4">
          {body}
        </form>
      ) : (
        <div className="space-y-4">{body}</div>
      )}
    </Dialog>
  );
}
