'use client';

import type { FormEvent, ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';
import { ErrorAlert } from './error-alert';

/**
 * A dialog that is one form: its fields, the error that names none of them, and Cancel beside
 * the submit button. It cannot be closed while it saves (Escape, a click outside, Cancel), so the
 * answer to a request in flight is never lost behind a closed dialog.
 *
 * Render it only while it is open: its caller's state then starts empty each time it opens.
 */
export function FormDialog({
  onClose,
  title,
  description,
  testId,
  children,
  onSubmit,
  submitLabel,
  submitDisabled,
  pending,
  loading = pending,
  error,
  errorTitle,
  wide = false,
}: {
  onClose: () => void;
  title: string;
  description?: ReactNode;
  testId: string;
  /** The fields. */
  children: ReactNode;
  /** The form was submitted (the page's own submission is prevented). */
  onSubmit: () => void;
  submitLabel: ReactNode;
  submitDisabled?: boolean;
  /** While the request runs: closing is refused and Cancel is disabled. */
  pending: boolean;
  /** The submit button's spinner; `pending` unless it should outlast it (a navigation). */
  loading?: boolean;
  /** What failed and names no field (fieldErrors' `other`); field errors show under their fields. */
  error: unknown;
  errorTitle: string;
  /** Room for a form wider than a column of fields (a segment's rules). */
  wide?: boolean;
}) {
  const close = () => {
    if (!pending) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <Dialog open onClose={close} testId={testId} title={title} description={description} wide={wide}>
      <form onSubmit={submit} className="space-y-5" noValidate>
        {children}
        {error ? <ErrorAlert error={error} fallbackTitle={errorTitle} /> : null}
        <div className="flex justify-end gap-2 pt-1">
          <Button variant="secondary" onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={loading} disabled={submitDisabled}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
