import { validationError } from '../../errors';
import { EVENT_TYPES, type EventType } from '../../vocabulary/event-types';

/** What an endpoint may subscribe to: event types of the catalogue, or '*' for every one. */
export type Subscription = EventType | '*';

/** The subscription list as stored: de-duplicated, '*' alone when it is there, or a 400 naming `events`. */
export function checkSubscriptions(input: string[]): Subscription[] {
  if (input.length === 0) throw validationError('events: name at least one event type, or "*" for all');
  const known = new Set<string>(EVENT_TYPES);
  const unknown = input.filter((type) => type !== '*' && !known.has(type));
  if (unknown.length > 0) {
    throw validationError(`events: ${unknown.map((type) => `"${type}"`).join(', ')} ${unknown.length === 1 ? 'is not an event type' : 'are not event types'}; see the event catalogue in the API reference, or use "*"`);
  }
  if (input.includes('*')) return ['*'];
  return [...new Set(input)] as EventType[];
}
