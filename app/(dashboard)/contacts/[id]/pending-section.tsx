'use client';

import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { formatDateTime } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';
import { useInvalidateContacts } from '../use-invalidate-contacts';
import { useContactWrite } from './use-contact-write';

/**
 * A contact asked to confirm (double opt-in, docs/consent.md): it gets nothing until the person
 * clicks the link, and is deleted 30 days after the last confirmation email. "Re-send" mails a new
 * link with the last one's sender, lists and topics; the server's throttle (once per 10 minutes,
 * 5 a day) answers in its own words when it refuses.
 */
export function PendingSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const headingId = useId();
  const invalidate = useInvalidateContacts();
  const write = useContactWrite('contacts.resendConfirmation');
  const resend = useMutation(trpc.contacts.resendConfirmation.mutationOptions({ onSuccess: () => invalidate() }));

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-amber-200 bg-amber-50 p-5 shadow-sm" data-testid="contact-pending-section">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 text-sm">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            Pending confirmation
          </h2>
          <p className="mt-1 text-slate-600">
            This contact was asked to confirm its subscription (double opt-in) and has not clicked the link yet. It receives no broadcast until it does; if it never
            does, it is deleted 30 days after the last confirmation email.
          </p>
          {resend.data && (
            <p className="mt-2 font-medium text-emerald-800" role="status" data-testid="confirmation-resent">
              A new confirmation email is on its way; its link works until {formatDateTime(resend.data.expiresAt)}.
            </p>
          )}
        </div>
        {write.offered && (
          <button
            type="button"
            className="shrink-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
            disabled={write.disabled || resend.isPending}
            onClick={() => resend.mutate({ idOrEmail: contact.id })}
            data-testid="resend-confirmation"
          >
            {resend.isPending ? 'Sending…' : 'Re-send confirmation'}
          </button>
        )}
      </div>
      {resend.error && (
        <div className="mt-3">
          <ErrorAlert error={resend.error} fallbackTitle="Could not re-send the confirmation" />
        </div>
      )}
    </section>
  );
}
