'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { Skeleton } from '../../../components/skeleton';
import { formatDateTime } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { Fact } from '../../emails/[id]/fact';
import { RenderedMessage } from '../composer/rendered-message';
import type { Broadcast } from '../types';

/** The message as it went out, with sample values: asked for only when opened. */
function SavedMessage({ broadcast }: { broadcast: Broadcast }) {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.broadcasts.preview.queryOptions({ id: broadcast.id }, { trpc: { context: { postQuery: true } } }), retry: false });
  if (query.data) return <RenderedMessage preview={query.data} from={broadcast.from} stale={false} />;
  if (query.isError) return <ErrorAlert error={query.error} fallbackTitle="Could not show the message" />;
  return <Skeleton className="h-72 w-full rounded-lg" />;
}

/** The topic a broadcast went under, by name once the topics are read; a topic deleted since leaves null on the broadcast. */
function TopicName({ topicId }: { topicId: string }) {
  const trpc = useTRPC();
  const topics = useQuery(trpc.topics.list.queryOptions({}));
  const topic = topics.data?.data.find((entry) => entry.id === topicId);
  if (topics.isPending) return <Skeleton className="h-4 w-24" />;
  return <span>{topic?.name ?? 'A topic'}</span>;
}

/** Who it was from and to (its audience, under its topic), what it said, and when: the broadcast's facts, and its message on demand. */
export function MessageSection({ broadcast, audienceName }: { broadcast: Broadcast; audienceName: string | undefined }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="message-heading" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="message-section">
      <h2 id="message-heading" className="text-base font-semibold text-slate-900">
        Message
      </h2>
      <dl className="mt-4 grid gap-x-6 gap-y-4 sm:grid-cols-2">
        <Fact label="Audience" testId="detail-audience">
          {broadcast.audienceId ? (
            <Link href={`/audiences/${broadcast.audienceId}`} className="text-indigo-600 hover:underline">
              {audienceName ?? 'Open the audience'}
            </Link>
          ) : (
            <span className="text-slate-500 italic">Deleted</span>
          )}
        </Fact>
        {broadcast.topicId && (
          <Fact label="Topic" testId="detail-topic">
            <TopicName topicId={broadcast.topicId} />
          </Fact>
        )}
        <Fact label="From">{broadcast.from}</Fact>
        {broadcast.replyTo.length > 0 && <Fact label="Reply-To">{broadcast.replyTo.join(', ')}</Fact>}
        <Fact label="Subject">{broadcast.subject ?? <span className="text-slate-500 italic">The template’s</span>}</Fact>
        {broadcast.scheduledAt && <Fact label="Scheduled for">{formatDateTime(broadcast.scheduledAt)}</Fact>}
        {broadcast.startedAt && <Fact label="Started">{formatDateTime(broadcast.startedAt)}</Fact>}
        {broadcast.sentAt && <Fact label="Last message handed over">{formatDateTime(broadcast.sentAt)}</Fact>}
        {broadcast.cancelledAt && <Fact label="Cancelled">{formatDateTime(broadcast.cancelledAt)}</Fact>}
      </dl>
      <details className="mt-5 border-t border-slate-100 pt-4" onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="cursor-pointer text-sm font-medium text-indigo-600 hover:underline">Show the message (with sample values)</summary>
        <div className="mt-3">{open && <SavedMessage broadcast={broadcast} />}</div>
      </details>
    </section>
  );
}
