// Automations in Resend's shape (docs/automations.md), declared once: the schema, the services, the
// routers and the OpenAPI document read these lists. Imports nothing.

/** An enabled automation starts runs; a disabled one starts none (runs already going finish, unless it was stopped). */
export const AUTOMATION_STATUSES = ['enabled', 'disabled'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** Resend's step types, in their words. */
export const STEP_TYPES = ['trigger', 'delay', 'send_email', 'wait_for_event', 'condition', 'contact_update', 'contact_delete', 'add_to_segment'] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** Resend's connection types: `default` for a step with one way on, the others name a branch. */
export const CONNECTION_TYPES = ['default', 'condition_met', 'condition_not_met', 'timeout', 'event_received'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

/** The email events an automation can start on (an email of the organization: its own mail's outcomes and a person's engagement). */
export const EMAIL_TRIGGER_EVENTS = ['email.delivered', 'email.opened', 'email.clicked', 'email.bounced', 'email.complained'] as const;

/** The contact events an automation can start on, beside the customer's own events. */
export const CONTACT_TRIGGER_EVENTS = ['contact.created', 'contact.added_to_segment', 'contact.topic_subscribed', 'contact.date_reached'] as const;

/** Every event this service raises itself for a trigger: the customer's own event names may not take them (nor their namespaces). */
export const SYSTEM_TRIGGER_EVENTS = [...CONTACT_TRIGGER_EVENTS, ...EMAIL_TRIGGER_EVENTS] as const;
export type SystemTriggerEvent = (typeof SYSTEM_TRIGGER_EVENTS)[number];

/**
 * Prefixes a customer's event name may not start with: this service's own event namespaces (the
 * event log's and the triggers'), and Resend's `resend:`, which Resend keeps for its system events.
 */
export const RESERVED_EVENT_PREFIXES = ['email.', 'contact.', 'domain.', 'broadcast.', 'automation.', 'resend:'] as const;

/** A run's status, in Resend's words: under way, finished at the end of a branch, stopped by a failure, or ended from outside. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * Where a running run stands at its cursor step: `ready` to do it now (its due time has come),
 * `waiting` in a delay or for an event until its due time (or the event) comes.
 */
export const RUN_STEP_STATES = ['ready', 'waiting'] as const;
export type RunStepState = (typeof RUN_STEP_STATES)[number];

/** A step of a run's history, in Resend's words (`pending` and `running` are never stored: a step is done in one transaction). */
export const RUN_STEP_STATUSES = ['completed', 'failed', 'skipped', 'waiting'] as const;
export type RunStepStatus = (typeof RUN_STEP_STATUSES)[number];

/** Why a run was cancelled (its `ended_reason`), beside a failure's own message. */
export const RUN_END_REASONS = ['stopped', 'deleted', 'contact_deleted', 'contact_unsubscribed', 'contact_suppressed'] as const;
export type RunEndReason = (typeof RUN_END_REASONS)[number];

/**
 * What an event for an address that is no contact did about the contact, when a trigger it names
 * asks to create it (`create_contact`): created it (a live key), or would have (a test key creates
 * no contact: contacts are shared, live state).
 */
export const CONTACT_CREATIONS = ['created', 'skipped_test_mode'] as const;
export type ContactCreation = (typeof CONTACT_CREATIONS)[number];
