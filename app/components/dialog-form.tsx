'use client';

import type { FormEvent, ReactNode } from 'react';
import { Button } from './button';
import { ErrorAlert } from './error-alert';

export interface DialogFormProps {
  /** The form was submitted (the page's own submission is prevented). */
  onSubmit: () => void;
  onCancel: () => void;
  /** The fields. */
  children: ReactNode;
  submitLabel: ReactNode;
  submitDisabled?: boolean;
  /** While the request runs: Cancel is disabled. */
  pending: boolean;
  /** The submit button's spinner; `pending` unless it should outlast it (a navigation). */
  loading?: boolean;
  /** What failed and names no field (fieldErrors' `other`); field errors show under their fields. */
  error: unknown;
  errorTitle: string;
  testId?: string;
}

/**
 * A dialog's form: its fields, the error that names none of them, and Cancel beside the submit
 * button, Cancel disabled while it saves. FormDialog is this in its own dialog; a dialog that shows
 * something else after the form (a key's secret) holds it as one of its steps.
 */
export function DialogForm({
  onSubmit,
  onCancel,
  children,
  submitLabel,
  submitDisabled,
  pending,
  loading = pending,
  error,
  errorTitle,
  testId,
}: DialogFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <form onSubmit={submit} className="space-y-5" data-testid={testId} noValidate>
      {children}
      {error ? <ErrorAlert error={error} fallbackTitle={errorTitle} /> : null}
      <div className="flex justify-end gap-2 pt-1">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" loading={loading} disabled={submitDisabled}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
