'use client';

import type { ReactNode } from 'react';
import { Dialog } from './dialog';
import { DialogForm, type DialogFormProps } from './dialog-form';

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
}: Omit<DialogFormProps, 'onCancel' | 'testId'> & {
  onClose: () => void;
  title: string;
  description?: ReactNode;
  testId: string;
  /** Room for a form wider than a column of fields (a segment's rules). */
  wide?: boolean;
}) {
  // Closing is refused while the request runs, as Cancel is.
  const close = () => {
    if (!pending) onClose();
  };

  return (
    <Dialog open onClose={close} testId={testId} title={title} description={description} wide={wide}>
      <DialogForm {...form} pending={pending} onCancel={close} />
    </Dialog>
  );
}
