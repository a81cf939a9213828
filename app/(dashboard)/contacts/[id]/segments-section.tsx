'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CardSection } from '../../../components/card-section';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile, ContactSegment } from '../types';
import { AddToSegmentForm } from './add-to-segment-form';
import { SectionEmpty, SectionLoadState } from './section-states';
import { LeaveSegmentDialog } from './leave-segment-dialog';
import { SegmentRow } from './segment-row';

/** The segments (audiences) the contact is in, with its subscription in each; joining another, leaving one. */
export function SegmentsSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const joined = useQuery(trpc.contacts.listSegments.queryOptions({ idOrEmail: contact.id }));
  const audiences = useQuery(trpc.segments.list.queryOptions({}));
  const [leaving, setLeaving] = useState<ContactSegment | null>(null);
  const list = joined.data?.data;
  // A rule segment's members are its rules': the contact is neither added to one nor taken out by hand (the server refuses it).
  const ruled = new Set(audiences.data?.data.filter((audience) => audience.rules !== null).map((audience) => audience.id));
  const joinable = list && audiences.data ? audiences.data.data.filter((audience) => !ruled.has(audience.id) && !list.some((segment) => segment.id === audience.id)) : [];

  return (
    <CardSection
      testId="contact-segments"
      title="Segments"
      description={`A broadcast to a segment reaches the contact while it is subscribed there${contact.unsubscribed ? ' and not unsubscribed from everything (it is now)' : ''}.`}
    >
      <SectionLoadState query={joined} errorTitle="Could not load the contact's segments" />
      {list?.length === 0 && <SectionEmpty testId="no-segments">In no segment: no broadcast reaches this contact.</SectionEmpty>}
      {list && list.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
          {list.map((segment) => (
            <SegmentRow key={segment.id} segment={segment} ruled={ruled.has(segment.id)} onLeave={() => setLeaving(segment)} />
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
    </CardSection>
  );
}
