import type { ConsentAction, ConsentVia } from '@/server/vocabulary/consent';

/** What changed, as a sentence's verb phrase ("Subscribed", "Left topic"). */
export const ACTION_WORDS: Record<ConsentAction, string> = {
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
  pending: 'Asked to confirm',
  confirmed: 'Confirmed',
  topic_in: 'Joined topic',
  topic_out: 'Left topic',
  suppressed: 'Suppressed',
  unsuppressed: 'Taken off the suppression list',
  sunset: 'Sunset',
  sunset_lifted: 'Sunset lifted',
};

/** Whether the change let mail through (green), stopped it (amber), or left it waiting on the person (grey). */
export const TONE: Record<ConsentAction, 'lets_through' | 'stops' | 'waits'> = {
  subscribed: 'lets_through',
  unsubscribed: 'stops',
  pending: 'waits',
  confirmed: 'lets_through',
  topic_in: 'lets_through',
  topic_out: 'stops',
  suppressed: 'stops',
  unsuppressed: 'lets_through',
  sunset: 'stops',
  sunset_lifted: 'lets_through',
};

export const TONE_DOT: Record<(typeof TONE)[ConsentAction], string> = { lets_through: 'bg-emerald-500', stops: 'bg-amber-500', waits: 'bg-slate-400' };

/** Through what, in a reader's words. */
export const VIA_WORDS: Record<ConsentVia, string> = {
  api: 'API key',
  dashboard: 'Dashboard',
  import: 'Import',
  form: 'Sign-up form',
  confirmation: 'Confirmation link',
  one_click: 'One-click unsubscribe',
  preference_page: 'Unsubscribe page',
  mailto: 'Unsubscribe by email',
  complaint: 'Spam complaint',
  bounce: 'Hard bounce',
  sunset: 'Sunset policy',
  retention: 'Clean-up',
  before_ledger: 'Before the ledger began',
  erasure: 'Erasure',
  unrecorded: 'Not recorded',
};

/** Where the change applied: the whole organization, one audience, or one topic (named when known). */
export function scopeWords(entry: { audienceId: string | null; topicId: string | null }, names: { audiences: Map<string, string>; topics: Map<string, string> }): string {
  if (entry.topicId) return names.topics.get(entry.topicId) ?? 'a topic since deleted';
  if (entry.audienceId) return names.audiences.get(entry.audienceId) ?? 'an audience it has left';
  return 'Everything you send to lists';
}

/** Whether the person did it themselves (and their client was recorded), rather than the organization. */
export const BY_THE_PERSON: ReadonlySet<ConsentVia> = new Set(['form', 'confirmation', 'one_click', 'preference_page', 'mailto', 'complaint']);
