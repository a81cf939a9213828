'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { ToggleSwitch } from '../../../components/toggle-switch';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';
import { useInvalidateContacts } from '../use-invalidate-contacts';
import { ResubscribeDialog } from './resubscribe-dialog';
import { useContactWrite } from './use-contact-write';

/**
 * The global opt-out: on, no broadcast reaches the contact, whatever its subscription in each
 * segment. Switching it on is saved at once; switching it off subscribes a person again, so it
 * asks first.
 */
export function SubscriptionSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const headingId = useId();
  const invalidate = useInvalidateContacts();
  const write = useContactWrite('contacts.update');
  const [confirming, setConfirming] = useState(false);
  const update = useMutation(
    trpc.contacts.update.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setConfirming(false);
      },
    }),
  );
  const unsubscribed = update.isPending && update.variables?.unsubscribed !== undefined ? update.variables.unsubscribed : contact.unsubscribed;
  const change = (next: boolean) => {
    if (next) update.mutate({ idOrEmail: contact.id, unsubscribed: true });
    else setConfirming(true);
  };

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="contact-subscription-section">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0 text-sm">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            Unsubscribed from everything
          </h2>
          <p className="mt-1 text-slate-500" id={`${headingId}-explanation`} data-testid="unsubscribed-explanation">
            {unsubscribed
              ? 'This contact receives no broadcast, in any segment, whatever its subscription there. Email sent to the address one at a time, through the API or SMTP, is not affected.'
              : 'This contact receives the broadcasts of the segments it is subscribed in. Switch this on to stop every broadcast to it at once.'}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-2 pt-0.5 text-sm font-medium text-slate-700">
          <span data-testid="unsubscribed-state">{unsubscribed ? 'On' : 'Off'}</span>
          <ToggleSwitch
            label="Unsubscribed from everything"
            checked={unsubscribed}
            onChange={change}
            disabled={!write.offered || write.disabled}
            pending={update.isPending}
            describedBy={`${headingId}-explanation`}
          />
        </div>
      </div>
      {update.error && !confirming && (
        <div className="mt-3">
          <ErrorAlert error={update.error} fallbackTitle="Could not change the subscription" />
        </div>
      )}
      <ResubscribeDialog
        contact={contact}
        open={confirming}
        pending={update.isPending}
        error={update.error}
        onConfirm={() => update.mutate({ idOrEmail: contact.id, unsubscribed: false })}
        onClose={() => {
          if (update.isPending) return;
          update.reset();
          setConfirming(false);
        }}
      />
    </section>
  );
}
