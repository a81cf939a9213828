'use client';

import type { ReactNode } from 'react';
import { Dialog } from './dialog';
import { DialogForm } from './dialog-form';

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
  wide = false,
  pending,
  ...form
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

  return (
    <Dialog open onClose={close} testId={testId} title={title} description={description} wide={wide}>
      <DialogForm {...form} pending={pending} onCancel={close} />
    </Dialog>
  );
}
