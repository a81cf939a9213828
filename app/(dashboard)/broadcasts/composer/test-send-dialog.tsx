'use client';

import { useMutation } from '@tanstack/react-query';
import { PlusIcon, XIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { authClient } from '../../../lib/auth-client';
import { countOf } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { TEST_RECIPIENTS_MAX } from '@/server/services/broadcasts/limits';

const inputClasses =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none';

/**
 * A test copy of the saved broadcast to a few addresses: the signed-in person's by default, or
 * addresses on the organization's verified domains (the server refuses any other). Each copy is
 * rendered with sample values and its subject starts with [Test].
 */
export function TestSendDialog({ broadcastId, open, onClose }: { broadcastId: string; open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const session = authClient.useSession();
  const [addresses, setAddresses] = useState<string[] | null>(null);
  const shown = addresses ?? [session.data?.user.email ?? ''];
  const send = useMutation(trpc.broadcasts.test.mutationOptions());
  const to = shown.map((address) => address.trim()).filter(Boolean);

  const edit = (next: string[]) => {
    setAddresses(next);
    send.reset();
  };
  const close = () => {
    if (send.isPending) return;
    setAddresses(null);
    send.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate({ id: broadcastId, to });
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      testId="test-send-dialog"
      title="Send a test copy"
      description="The saved version, rendered with sample values (name “Sample contact”), subject starting with [Test]. To your own address or addresses on your verified domains."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <fieldset className="space-y-2">
          <legend className="mb-1.5 text-sm font-medium text-slate-700">Send to</legend>
          {shown.map((address, index) => (
            <div key={index} className="flex gap-2">
              <input
                type="email"
                aria-label={`Address ${index + 1}`}
                className={inputClasses}
                value={address}
                autoComplete="off"
                spellCheck={false}
                onChange={(event) => edit(shown.map((value, i) => (i === index ? event.target.value : value)))}
              />
              {shown.length > 1 && (
                <Button variant="ghost" size="sm" className="h-9" aria-label={`Remove address ${index + 1}`} onClick={() => edit(shown.filter((_, i) => i !== index))}>
                  <XIcon className="size-4" />
                </Button>
              )}
            </div>
          ))}
          {shown.length < TEST_RECIPIENTS_MAX && (
            <Button variant="ghost" size="sm" onClick={() => edit([...shown, ''])}>
              <PlusIcon className="size-4" />
              Add an address
            </Button>
          )}
          <p className="text-xs text-slate-500">Up to {TEST_RECIPIENTS_MAX} addresses. Test copies count against your daily and monthly limits.</p>
        </fieldset>
        {send.isSuccess && (
          <Alert tone="info" title="Test sent">
            <span data-testid="test-send-result">
              {send.data.data.length === to.length
                ? `${countOf(send.data.data.length, 'test copy', 'test copies')} on the way to ${to.join(', ')}.`
                : `${countOf(send.data.data.length, 'test copy', 'test copies')} of ${to.length} sent: a limit stopped the others.`}
            </span>
          </Alert>
        )}
        {send.error ? <ErrorAlert error={send.error} fallbackTitle="Could not send the test" /> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={send.isPending}>
            {send.isSuccess ? 'Done' : 'Cancel'}
          </Button>
          <Button type="submit" loading={send.isPending} disabled={to.length === 0}>
            {send.isSuccess ? 'Send again' : 'Send test'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
