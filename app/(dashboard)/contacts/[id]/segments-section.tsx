'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { Skeleton } from '../../../components/skeleton';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile, ContactSegment } from '../types';
import { AddToSegmentForm } from './add-to-segment-form';
import { LeaveSegmentDialog } from './leave-segment-dialog';
import { SegmentRow } from './segment-row';

/** The segments (audiences) the contact is in, with its subscription in each; joining another, leaving one. */
export function SegmentsSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const headingId = useId();
  const joined = useQuery(trpc.contacts.listSegments.queryOptions({ idOrEmail: contact.id }));
  const audiences = useQuery(trpc.audiences.list.queryOptions({}));
  const [leaving, setLeaving] = useState<ContactSegment | null>(null);
  const list = joined.data?.data;
  const joinable = list && audiences.data ? audiences.data.data.filter((audience) => !list.some((segment) => segment.id === audience.id)) : [];

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="contact-segments">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        Segments
      </h2>
      <p className="mt-1 text-sm text-slate-500">
        A broadcast to a segment reaches the contact while it is subscribed there{contact.unsubscribed ? ' and not unsubscribed from everything (it is now)' : ''}.
      </p>

      {joined.isPending && (
        <div className="mt-4 space-y-2" aria-busy="true">
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </div>
      )}
      {joined.isError && (
        <div className="mt-4">
          <ErrorAlert error={joined.error} fallbackTitle="Could not load the contact's segments" action={<RetryButton query={joined} />} />
        </div>
      )}
      {list?.length === 0 && (
        <p className="mt-4 rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500" data-testid="no-segments">
          In no segment: no broadcast reaches this contact.
        </p>
      )}
      {list && list.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
          {list.map((segment) => (
            <SegmentRow key={segment.id} segment={segment} onLeave={() => setLeaving(segment)} />
          ))}
        </ul>
      )}
      {list && audiences.data && (
        <div className="mt-4 border-t border-slate-100 pt-4">
          {audiences.data.data.length === 0 ? (
            <p className="text-sm text-slate-500">
              Your organization has no segments yet.{' '}
              <Link href="/audiences" className="font-medium text-indigo-600 hover:underline">
                Create an audience
              </Link>{' '}
              to send broadcasts to.
            </p>
          ) : (
            <AddToSegmentForm contact={contact} segments={joinable} />
          )}
        </div>
      )}
      {leaving && <LeaveSegmentDialog contact={contact} segment={leaving} onClose={() => setLeaving(null)} />}
    </section>
  );
}
