// The catalogue of events, declared once: what the services record in the event log, what the
// OpenAPI document lists, and what webhooks will offer. Imports nothing.

export const EVENT_DESCRIPTIONS = {
  'email.queued': 'An email was accepted and waits to be sent.',
  'email.scheduled': 'An email was accepted (or rescheduled) for a later send time.',
  'email.canceled': 'A scheduled email was canceled before it was sent.',
  'email.sent': 'The receiving server took the message for at least one recipient.',
  'email.delivered': 'A recipient’s server accepted the message.',
  'email.delivery_delayed': 'A recipient’s server deferred the message; it will be retried.',
  'email.bounced': 'A recipient’s server refused the message for good, or reported a bounce.',
  'email.complained': 'A recipient marked the message as spam.',
  'email.suppressed': 'A recipient was skipped because the address is on the suppression list.',
  'email.failed': 'The message could not be delivered to a recipient within the retry window.',
  'email.opened': 'A recipient opened the message (tracking pixel).',
  'email.clicked': 'A recipient followed a tracked link.',
  'email.unsubscribed': 'A recipient unsubscribed through the message’s unsubscribe link, one-click header or mailto address.',
  'domain.created': 'A sending domain was registered.',
  'domain.updated': 'A sending domain’s verification status changed.',
  'domain.deleted': 'A sending domain was deleted.',
  'contact.created': 'A contact was added to an audience.',
  'contact.updated': 'A contact’s name or subscription changed.',
  'contact.deleted': 'A contact was removed from an audience.',
  'contact.consent_changed': 'A contact’s consent changed (subscribed, unsubscribed, confirmed, a topic joined or left, suppressed, sunset): one event per consent-ledger entry.',
  'contact.confirmed': 'A contact clicked the link of a double opt-in confirmation and is subscribed.',
  'broadcast.scheduled': 'A broadcast was scheduled.',
  'broadcast.sending': 'A broadcast started sending.',
  'broadcast.held': 'A broadcast was held: for review, or until a daily or monthly limit resets.',
  'broadcast.resumed': 'A held broadcast went on sending.',
  'broadcast.sent': 'Every message of a broadcast was handed on.',
  'broadcast.cancelled': 'A broadcast was cancelled.',
  'broadcast.failed': 'A broadcast could not be sent.',
  'automation.run_started': 'An automation started a run for a contact (its trigger’s event came).',
  'automation.run_completed': 'An automation’s run reached the end of its branch.',
  'automation.run_failed': 'An automation’s run stopped at a step that failed (its error says why).',
  'automation.run_cancelled': 'An automation’s run was ended: the automation stopped or deleted, or the contact deleted, unsubscribed or suppressed.',
} as const;

export type EventType = keyof typeof EVENT_DESCRIPTIONS;
// Object.keys cannot know the keys of a literal: the one place the catalogue's type is asserted.
export const EVENT_TYPES = Object.keys(EVENT_DESCRIPTIONS) as [EventType, ...EventType[]];

/** The email events, the ones an email's own history holds. */
export type EmailEventType = Extract<EventType, `email.${string}`>;
export const EMAIL_EVENT_TYPES = EVENT_TYPES.filter((type): type is EmailEventType => type.startsWith('email.')) as [EmailEventType, ...EmailEventType[]];
