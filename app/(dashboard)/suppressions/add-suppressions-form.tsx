import type { FormEvent } from 'react';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { TextareaField } from '../../components/field';
import { countOf, formatCount } from '../../lib/format';
import { CallerReasonField } from './caller-reason-field';
import type { CallerReason } from './reasons';
import type { UploadProgress } from './suppression-upload';

/** The addresses to add, typed or pasted, and the reason they share. */
export function AddSuppressionsForm({
  text,
  onTextChange,
  reason,
  onReasonChange,
  count,
  pending,
  progress,
  textError,
  error,
  onSubmit,
  onCancel,
}: {
  text: string;
  onTextChange: (text: string) => void;
  reason: CallerReason;
  onReasonChange: (reason: CallerReason) => void;
  /** How many addresses the text holds. */
  count: number;
  pending: boolean;
  /** While several are sent in batches: how far it has got. */
  progress: UploadProgress | null;
  /** The server's complaint about the one address sent, shown under the text. */
  textError?: string;
  /** Anything else that went wrong. */
  error: unknown;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (count > 0) onSubmit();
  };
  const label = progress
    ? `Adding ${formatCount(progress.done)} of ${formatCount(progress.total)}…`
    : count === 0
      ? 'Add addresses'
      : `Add ${countOf(count, 'address', 'addresses')}`;

  return (
    <form onSubmit={submit} className="space-y-5" noValidate data-testid="add-suppressions-form">
      <TextareaField
        label="Addresses"
        name="emails"
        rows={7}
        autoFocus
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={'ada@example.com\ngrace@example.org'}
        className="[&_textarea]:font-mono [&_textarea]:text-[13px]"
        value={text}
        onChange={(event) => onTextChange(event.target.value)}
        readOnly={pending}
        hint={count > 0 ? <span data-testid="address-count">{countOf(count, 'address', 'addresses')}</span> : undefined}
        description="One per line, or separated by commas or semicolons; the address alone, without a name. Any number: a long list is sent 1,000 at a time, and each address is checked on its own."
        error={textError}
      />
      <CallerReasonField value={reason} onChange={onReasonChange} disabled={pending} />
      {error ? <ErrorAlert error={error} fallbackTitle="Could not add the address" /> : null}
      <div className="flex justify-end gap-2 pt-1">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" loading={pending} disabled={count === 0}>
          {label}
        </Button>
      </div>
    </form>
  );
}
