import { useId } from 'react';
import { Badge } from '../../../components/badge';
import { ToggleSwitch } from '../../../components/toggle-switch';
import { DEFAULT_SUBSCRIPTIONS } from '../topics/default-subscription';
import type { ContactTopic, DefaultSubscription } from '../types';

/**
 * One topic and where the contact stands in it: the switch joins or leaves it (shown as asked
 * while the change is saved). A role that may not change it reads the state alone.
 */
export function TopicChoiceRow({
  topic,
  defaultSubscription,
  pending,
  offered,
  disabled,
  onChange,
}: {
  topic: ContactTopic;
  /** The topic's default, once the topics are loaded. */
  defaultSubscription: DefaultSubscription | undefined;
  /** The state being saved for this topic, or null. */
  pending: ContactTopic['subscription'] | null;
  offered: boolean;
  disabled: boolean;
  onChange: (subscription: ContactTopic['subscription']) => void;
}) {
  const id = useId();
  const subscribed = (pending ?? topic.subscription) === 'opt_in';
  const fallback = defaultSubscription && DEFAULT_SUBSCRIPTIONS[defaultSubscription];
  return (
    <li className="flex items-start justify-between gap-4 py-3" data-testid="contact-topic" data-topic-id={topic.id} data-name={topic.name} data-subscription={topic.subscription}>
      <div className="min-w-0 text-sm" id={id}>
        <p className="font-medium break-words text-slate-900" data-testid="contact-topic-name">
          {topic.name}
        </p>
        {topic.description && <p className="mt-0.5 break-words text-slate-500">{topic.description}</p>}
        {fallback && (
          <p className="mt-0.5 text-xs text-slate-400" data-testid="contact-topic-default">
            {fallback.label} topic: {fallback.meaning.charAt(0).toLowerCase() + fallback.meaning.slice(1)}
          </p>
        )}
      </div>
      <div className="flex shrink-0 items-center gap-2 pt-0.5 text-sm font-medium text-slate-700">
        <span data-testid="contact-topic-state">
          <Badge tone={subscribed ? 'green' : 'muted'}>{subscribed ? 'Subscribed' : 'Not subscribed'}</Badge>
        </span>
        {offered && (
          <ToggleSwitch
            label={`Subscribed to ${topic.name}`}
            checked={subscribed}
            onChange={(next) => onChange(next ? 'opt_in' : 'opt_out')}
            disabled={disabled}
            pending={pending !== null}
            describedBy={id}
          />
        )}
      </div>
    </li>
  );
}
