'use client';

import { useState } from 'react';
import { DialogForm } from '../../components/dialog-form';
import { TextField } from '../../components/field';
import { fieldErrors } from '../../lib/field-errors';
import { ALL_EVENTS } from './event-groups';
import { EventPicker, type EventChoice } from './event-picker';

export interface WebhookValues {
  url: string;
  events: string[];
}

const FIELDS = ['url', 'events'] as const;

const choiceOf = (events: string[]): EventChoice =>
  events.includes(ALL_EVENTS) ? { all: true, types: [] } : { all: false, types: events };

/**
 * The URL and the events, for a new endpoint and for a change to one. The server checks both; its
 * complaint about each shows under that field.
 */
export function WebhookForm({
  initial = { url: '', events: [] },
  submitLabel,
  pending,
  error,
  errorTitle,
  onSubmit,
  onCancel,
  testId,
}: {
  initial?: WebhookValues;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  errorTitle: string;
  onSubmit: (values: WebhookValues) => void;
  onCancel: () => void;
  testId: string;
}) {
  const [url, setUrl] = useState(initial.url);
  const [events, setEvents] = useState(() => choiceOf(initial.events));
  const { byField, other } = fieldErrors(error, FIELDS);

  const submit = () => {
    onSubmit({ url: url.trim(), events: events.all ? [ALL_EVENTS] : events.types });
  };

  return (
    <DialogForm
      testId={testId}
      onSubmit={submit}
      onCancel={onCancel}
      submitLabel={submitLabel}
      submitDisabled={!url.trim()}
      pending={pending}
      error={other}
      errorTitle={errorTitle}
    >
      <TextField
        label="Endpoint URL"
        name="url"
        type="url"
        inputMode="url"
        placeholder="https://example.com/webhooks/eumail"
        required
        maxLength={4096}
        autoFocus
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        description="A public http(s) address that answers 2xx. Private, loopback and internal addresses are refused."
        error={byField.url}
      />
      <EventPicker value={events} onChange={setEvents} error={byField.events} />
    </DialogForm>
  );
}
