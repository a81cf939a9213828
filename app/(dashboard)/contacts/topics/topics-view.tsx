'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PlusIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { PageHeader } from '../../../components/page-header';
import { RetryButton } from '../../../components/retry-button';
import { useTRPC } from '../../../lib/trpc';
import { GatedActions } from '../../create-gate/gated-actions';
import { useCreateGate } from '../../create-gate/use-create-gate';
import { ContactsTabs } from '../contacts-tabs';
import type { Topic } from '../types';
import { CreateTopicDialog } from './create-topic-dialog';
import { DeleteTopicDialog } from './delete-topic-dialog';
import { EditTopicDialog } from './edit-topic-dialog';
import { TopicRow } from './topic-row';
import { TopicSkeletonRows } from './topic-skeleton-rows';
import { TopicsEmpty } from './topics-empty';
import { TopicsLegend } from './topics-legend';
import { TopicsTable } from './topics-table';

type Open = { dialog: 'create' } | { dialog: 'edit'; topic: Topic } | { dialog: 'delete'; topic: Topic } | null;

/** The organization's topics, in the order made (the preference page's order). */
export function TopicsView() {
  const trpc = useTRPC();
  const topics = useQuery(trpc.topics.list.queryOptions({}));
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const list = topics.data?.data;
  const gate = useCreateGate({ procedure: 'topics.create', liveOnly: 'Topics are shared by Live and Test mode: create them in Live.' });

  const createButton = (
    <Button onClick={() => setOpen({ dialog: 'create' })} disabled={gate.disabled} aria-describedby={gate.noteId}>
      <PlusIcon className="size-4" />
      Create topic
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Topics"
        description="Kinds of mail a contact may leave on their own, without leaving all of your mail."
        actions={list && list.length > 0 ? <GatedActions gate={gate}>{createButton}</GatedActions> : undefined}
      />
      <ContactsTabs />

      {topics.isPending && (
        <TopicsTable busy>
          <TopicSkeletonRows />
        </TopicsTable>
      )}

      {topics.isError && <ErrorAlert error={topics.error} fallbackTitle="Could not load the topics" action={<RetryButton query={topics} />} />}

      {list && list.length === 0 && (
        <TopicsEmpty
          action={
            <GatedActions gate={gate} align="center">
              {createButton}
            </GatedActions>
          }
        />
      )}

      {list && list.length > 0 && (
        <div className="space-y-4">
          <TopicsTable>
            {list.map((topic) => (
              <TopicRow key={topic.id} topic={topic} onEdit={() => setOpen({ dialog: 'edit', topic })} onDelete={() => setOpen({ dialog: 'delete', topic })} />
            ))}
          </TopicsTable>
          <TopicsLegend />
        </div>
      )}

      {open?.dialog === 'create' && <CreateTopicDialog onClose={close} />}
      {open?.dialog === 'edit' && <EditTopicDialog topic={open.topic} onClose={close} />}
      {open?.dialog === 'delete' && <DeleteTopicDialog topic={open.topic} onClose={close} />}
    </>
  );
}
