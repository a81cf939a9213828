'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { TextField } from '../../../components/field';
import { useTRPC } from '../../../lib/trpc';
import type { Email } from '../types';
import { fromUtcInput, toUtcInput } from '../../../lib/utc-input';
import { useInvalidateEmails } from './use-invalidate-emails';
import { MayCall } from '../../../components/may-call';

/** Moves a scheduled email to another time (UTC, like every time on the page). */
function RescheduleFormShown({ email }: { email: Email }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateEmails();
  const [value, setValue] = useState(() => toUtcInput(email.scheduledAt ?? new Date().toISOString()));
  const reschedule = useMutation(trpc.emails.reschedule.mutationOptions({ onSuccess: () => void invalidate() }));
  const at = fromUtcInput(value);
  const unchanged = at !== null && email.scheduledAt !== null && new Date(at).getTime() === new Date(email.scheduledAt).getTime();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (at) reschedule.mutate({ id: email.id, scheduled_at: at });
  };

  return (
    // noValidate: the server says why a time is refused; `min` still greys out the past in the picker.
    <form onSubmit={submit} noValidate className="space-y-3" data-testid="reschedule-form">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <TextField
          label="New send time (UTC)"
          name="scheduled_at"
          type="datetime-local"
          required
          className="sm:w-64"
          min={toUtcInput(new Date().toISOString())}
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            reschedule.reset();
          }}
        />
        <Button type="submit" variant="secondary" loading={reschedule.isPending} disabled={!at || unchanged}>
          Reschedule
        </Button>
      </div>
      <p className="min-h-5 text-sm" aria-live="polite" data-testid="reschedule-feedback">
        {reschedule.isSuccess && <span className="text-emerald-700">Rescheduled.</span>}
      </p>
      {reschedule.error && <ErrorAlert error={reschedule.error} fallbackTitle="Could not reschedule the email" />}
    </form>
  );
}

/** Only for a role that may reschedule. */
export function RescheduleForm(props: { email: Email }) {
  return (
    <MayCall procedure="emails.reschedule">
      <RescheduleFormShown {...props} />
    </MayCall>
  );
}
