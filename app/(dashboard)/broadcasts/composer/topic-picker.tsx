'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { FieldError, SelectField } from '../../../components/field';
import { useTRPC } from '../../../lib/trpc';
import { DEFAULT_SUBSCRIPTIONS } from '../../contacts/topics/default-subscription';
import { PickerLoadState } from './picker-load-state';

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The topic the broadcast is sent under, or none. Under a topic it reaches only the audience's
 * contacts in the topic, and its unsubscribe link leaves the topic only. Without topics, nothing
 * to choose: a word on what they are for.
 */
export function TopicPicker({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.topics.list.queryOptions({}));
  const topics = query.data?.data;

  if (query.isPending || query.isError) return <PickerLoadState query={query} label="Topic" name="topic" />;
  if (topics && topics.length === 0 && !value) {
    return (
      <p data-testid="no-topics" className="text-xs text-slate-500">
        No topics yet: a broadcast goes to every subscribed contact of its audience.{' '}
        <Link href="/contacts/topics" className="font-medium text-indigo-600 hover:underline">
          Create a topic
        </Link>{' '}
        to let contacts leave one kind of mail and keep the rest.
      </p>
    );
  }

  const chosen = topics?.find((topic) => topic.id === value);
  return (
    <div>
      <SelectField
        label="Topic"
        name="topic_id"
        hint="Optional"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        description={
          chosen
            ? `Only the audience's contacts in ${chosen.name} get it, and its unsubscribe link leaves ${chosen.name} only. ${DEFAULT_SUBSCRIPTIONS[chosen.defaultSubscription].label}: ${lowerFirst(DEFAULT_SUBSCRIPTIONS[chosen.defaultSubscription].meaning)}`
            : 'Without a topic every subscribed contact of the audience gets it, and its unsubscribe link leaves the audience.'
        }
      >
        <option value="">No topic</option>
        {value && !chosen && (
          <option value={value} disabled>
            The topic was deleted: choose another
          </option>
        )}
        {topics?.map((topic) => (
          <option key={topic.id} value={topic.id}>
            {topic.name}
          </option>
        ))}
      </SelectField>
      {error && <FieldError id="topic-error">{error}</FieldError>}
    </div>
  );
}
