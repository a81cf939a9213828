// The states of a webhook delivery and of one attempt, declared once. Imports nothing.

/** pending: an attempt is due at next_attempt_at; succeeded and failed are final. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Why an attempt was made: its turn in the schedule, a replay asked for, or a test ping. */
export const ATTEMPT_TRIGGERS = ['scheduled', 'replay', 'test'] as const;
export type AttemptTrigger = (typeof ATTEMPT_TRIGGERS)[number];

/** The event a test ping carries: offered to no subscription, sent only to the endpoint pinged. */
export const TEST_EVENT_TYPE = 'webhook.test';
