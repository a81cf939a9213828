'use client';

import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { TextField } from '../../../components/field';
import { Skeleton } from '../../../components/skeleton';
import { countOf, formatDateTime } from '../../../lib/format';
import { fromUtcInput, toUtcInput } from '../../../lib/utc-input';
import type { Broadcast } from '../types';
import type { Preflight } from './preflight-types';
import { useRecipientCount } from './use-recipient-count';
import { useSendBroadcast } from './use-send-broadcast';

export type SendMode = 'now' | 'schedule';

/** The picker starts an hour from now, on the minute. */
const inAnHour = () => toUtcInput(new Date(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000).toISOString());

/**
 * The last step before the broadcast leaves: how many subscribed contacts it goes to (counted
 * now by the server), the failed pre-flight checks if any, and for a schedule the time (UTC).
 */
export function SendDialog({ broadcast, mode, preflight, onClose }: { broadcast: Broadcast; mode: SendMode; preflight: Preflight | undefined; onClose: () => void }) {
  const { recipients, query } = useRecipientCount(broadcast.id, true);
  const [when, setWhen] = useState(() => (broadcast.scheduledAt ? toUtcInput(broadcast.scheduledAt) : inAnHour()));
  const send = useSendBroadcast(onClose);
  const at = fromUtcInput(when);
  const failed = preflight?.checks.filter((check) => check.status === 'fail') ?? [];
  const audience = recipients === null ? 'the subscribed contacts of the audience' : countOf(recipients, 'subscribed contact');

  const close = () => {
    if (send.isPending) return;
    send.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'now') send.mutate({ id: broadcast.id });
    else if (at) send.mutate({ id: broadcast.id, scheduled_at: at });
  };

  const title = mode === 'now' ? (recipients === null ? 'Send the broadcast?' : `Send to ${audience}?`) : 'Schedule the broadcast';
  return (
    <ConfirmDialog
      onClose={close}
      testId="send-dialog"
      title={title}
      confirmVariant="primary"
      confirmLabel={mode === 'now' ? 'Send now' : 'Schedule'}
      confirmDisabled={mode === 'schedule' && !at}
      onSubmit={submit}
      pending={send.isPending}
      loading={send.isPending || send.isSuccess}
      error={send.error}
      errorTitle={mode === 'now' ? 'Could not send the broadcast' : 'Could not schedule the broadcast'}
      description={
        <span data-testid="send-dialog-summary" data-recipients={recipients ?? undefined}>
          <strong className="font-semibold break-all text-slate-700">{broadcast.name}</strong>{' '}
          {mode === 'now' ? 'goes out now to ' : 'goes out at the time below to '}
          {query.isPending ? <Skeleton className="inline-block h-3.5 w-28 align-middle" /> : audience}
          {mode === 'schedule' && recipients !== null && ' (as many as are subscribed then)'}, each once. Addresses on your suppression list are skipped.
        </span>
      }
    >
      {mode === 'schedule' && (
        <TextField
          label="Send at (UTC)"
          name="scheduled_at"
          type="datetime-local"
          required
          min={toUtcInput(new Date().toISOString())}
          value={when}
          onChange={(event) => {
            setWhen(event.target.value);
            send.reset();
          }}
          description={at ? `${formatDateTime(at)}. You can change the broadcast, move the time or cancel until then.` : 'Choose a date and time.'}
        />
      )}
      {failed.length > 0 && (
        <Alert tone="warning" title={failed.length === 1 ? 'A pre-flight check failed' : `${failed.length} pre-flight checks failed`}>
          <span data-testid="send-dialog-failed-checks">
            {failed.map((check) => check.title).join(', ')}. Mailbox providers may put the broadcast in spam or refuse it.
          </span>
        </Alert>
      )}
      {mode === 'now' && (
        <p className="text-sm text-slate-600">You can cancel while it is sending; messages already handed to delivery still go out.</p>
      )}
    </ConfirmDialog>
  );
}
