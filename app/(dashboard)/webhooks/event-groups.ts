import { EVENT_DESCRIPTIONS, EVENT_TYPES, type EventType } from '@/server/vocabulary/event-types';

export { EVENT_DESCRIPTIONS, type EventType };

/** The subscription to every event type. */
export const ALL_EVENTS = '*';

export interface EventGroup {
  prefix: string;
  label: string;
  types: EventType[];
}

const LABELS: Record<string, string> = { email: 'Emails', domain: 'Domains', contact: 'Contacts', broadcast: 'Broadcasts', automation: 'Automations' };

/** The catalogue grouped by what the events are about (the part before the dot), in catalogue order. */
export const EVENT_GROUPS: EventGroup[] = EVENT_TYPES.reduce<EventGroup[]>((groups, type) => {
  const prefix = type.split('.')[0]!;
  let group = groups.find((entry) => entry.prefix === prefix);
  if (!group) {
    group = { prefix, label: LABELS[prefix] ?? prefix, types: [] };
    groups.push(group);
  }
  group.types.push(type);
  return groups;
}, []);
