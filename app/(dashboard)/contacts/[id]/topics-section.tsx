'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { CardSection } from '../../../components/card-section';
import { ErrorAlert } from '../../../components/error-alert';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProfile } from '../types';
import { SectionEmpty, SectionLoadState } from './section-states';
import { TopicChoiceRow } from './topic-choice-row';
import { useContactWrite } from './use-contact-write';

/**
 * Every topic of the organization with where the contact stands (its own choice, else the topic's
 * default), each switched on or off at once: a broadcast under a topic reaches the contact only
 * while it is in it.
 */
export function TopicsSection({ contact }: { contact: ContactProfile }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const choices = useQuery(trpc.contactTopics.list.queryOptions({ idOrEmail: contact.id }));
  // For each topic's default, beside the contact's state; the list above says where it stands either way.
  const topics = useQuery(trpc.topics.list.queryOptions({}));
  const write = useContactWrite('contactTopics.update');
  const update = useMutation(
    trpc.contactTopics.update.mutationOptions({
      // The answer is the list again, as it stands after the change.
      onSuccess: (answer) => queryClient.setQueryData(trpc.contactTopics.list.queryKey({ idOrEmail: contact.id }), answer),
    }),
  );
  const list = choices.data?.data;
  const changing = update.isPending ? update.variables.topics[0] : undefined;
  const failed = update.isError ? list?.find((topic) => topic.id === update.variables?.topics[0]?.id) : undefined;

  return (
    <CardSection
      testId="contact-topics"
      title="Topics"
      description={`A broadcast sent under a topic reaches the contact only while it is in the topic${contact.unsubscribed ? ', and never while it is unsubscribed from everything (it is now)' : ''}.`}
    >
      <SectionLoadState query={choices} errorTitle="Could not load the contact's topics" />
      {list?.length === 0 && (
        <SectionEmpty testId="no-topics">
          Your organization has no topics yet.{' '}
          <Link href="/contacts/topics" className="font-medium text-indigo-600 hover:underline">
            Create one
          </Link>{' '}
          (product news, a weekly digest) so contacts can leave one kind of mail and keep the rest.
        </SectionEmpty>
      )}
      {list && list.length > 0 && (
        <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
          {list.map((topic) => (
            <TopicChoiceRow
              key={topic.id}
              topic={topic}
              defaultSubscription={topics.data?.data.find((entry) => entry.id === topic.id)?.defaultSubscription}
              pending={changing?.id === topic.id ? changing.subscription : null}
              offered={write.offered}
              disabled={write.disabled || update.isPending}
              onChange={(subscription) => update.mutate({ idOrEmail: contact.id, topics: [{ id: topic.id, subscription }] })}
            />
          ))}
        </ul>
      )}
      {update.error && (
        <div className="mt-4">
          <ErrorAlert error={update.error} fallbackTitle={failed ? `Could not change ${failed.name}` : 'Could not change the topic'} />
        </div>
      )}
    </CardSection>
  );
}
