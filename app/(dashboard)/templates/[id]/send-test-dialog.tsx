'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { TextField } from '../../../components/field';
import { authClient } from '../../../lib/auth-client';
import { useDashboardMode } from '../../../lib/dashboard-mode';
import { fieldErrors } from '../../../lib/field-errors';
import { useTRPC } from '../../../lib/trpc';
import type { TemplateValues } from '../template-values';
import { readVariables } from '../variables-json';

const ADDRESS_FIELDS = ['from', 'to'] as const;

/** A sender to start from: an address on the first verified domain, else on the shared sandbox. */
function useSuggestedFrom(): string {
  const trpc = useTRPC();
  const domains = useQuery(trpc.domains.list.queryOptions({}));
  const list = domains.data?.data ?? [];
  const domain = list.find((candidate) => !candidate.sandbox && candidate.status === 'verified') ?? list.find((candidate) => candidate.sandbox);
  return domain ? `onboarding@${domain.name}` : '';
}

/**
 * "Send test": the template as it stands in the editor (saved or not), rendered with the sample
 * variables, to one address, through the send path of POST /emails in the dashboard's mode. Every
 * refusal of a send applies and is shown in its words; a test-mode send is recorded and plays out
 * without being delivered. The result links to the email's page.
 */
export function SendTestDialog({ templateId, values, variables, open, onClose }: { templateId: string; values: TemplateValues; variables: string; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const mode = useDashboardMode();
  const session = authClient.useSession();
  const suggestedFrom = useSuggestedFrom();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const send = useMutation(trpc.templates.sendTest.mutationOptions());
  const shownFrom = from ?? suggestedFrom;
  const shownTo = to ?? session.data?.user.email ?? '';
  const json = readVariables(variables);
  const { byField, other } = fieldErrors(send.error, ADDRESS_FIELDS);

  const close = () => {
    if (send.isPending) return;
    send.reset();
    onClose();
  };
  const edit = (set: (value: string) => void) => (event: { target: { value: string } }) => {
    set(event.target.value);
    send.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!json.ok) return;
    send.mutate({
      id: templateId,
      from: shownFrom.trim(),
      to: shownTo.trim(),
      subject: values.subject,
      html: values.html === '' ? undefined : values.html,
      text: values.text === '' ? undefined : values.text,
      variables: json.json,
    });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      testId="send-test-dialog"
      title="Send a test"
      description="What the editor holds now, saved or not, rendered with the sample variables; the subject starts with [Test]. It is sent as any email is, and counts against your limits."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <TextField
          label="To"
          name="to"
          type="email"
          autoComplete="off"
          spellCheck={false}
          value={shownTo}
          onChange={edit(setTo)}
          error={byField.to}
        />
        <TextField
          label="From"
          name="from"
          autoComplete="off"
          spellCheck={false}
          value={shownFrom}
          onChange={edit(setFrom)}
          description="An address on one of your verified domains, or on the sandbox (which sends live mail only to your own confirmed address)."
          error={byField.from}
        />
        {!json.ok && (
          <Alert tone="warning" title="The sample variables are not valid JSON">
            Fix them in the preview first: the test is rendered with them.
          </Alert>
        )}
        {mode === 'test' && !send.isSuccess && (
          <p className="text-xs text-slate-500" data-testid="send-test-mode">
            Test mode: the email is recorded and plays out its delivery here; nothing is delivered.
          </p>
        )}
        {send.isSuccess && (
          <Alert tone="info" title={mode === 'test' ? 'Test recorded' : 'Test sent'}>
            <span data-testid="send-test-result">
              {mode === 'test' ? 'Recorded in test mode, nothing is delivered: ' : `On its way to ${shownTo.trim()}: `}
              <Link href={`/emails/${send.data.id}`} className="font-medium underline">
                open the email
              </Link>
              .
            </span>
          </Alert>
        )}
        {other ? <ErrorAlert error={other} fallbackTitle="Could not send the test" /> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={send.isPending}>
            {send.isSuccess ? 'Done' : 'Cancel'}
          </Button>
          <Button type="submit" loading={send.isPending} disabled={!json.ok || shownTo.trim() === '' || shownFrom.trim() === ''}>
            {send.isSuccess ? 'Send again' : 'Send test'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
