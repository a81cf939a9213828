// The vocabulary of emails, declared once: the schema, the services, the routers' zod enums (and
// so the OpenAPI document) and the dashboard all take these lists. Imports nothing, so client
// components can use it.

/** The states of an email, in the order an email usually moves through them. */
export const EMAIL_STATUSES = ['queued', 'scheduled', 'sending', 'sent', 'delivered', 'canceled', 'bounced', 'complained', 'suppressed', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** The state of one recipient of an email (its envelope address). */
export const RECIPIENT_STATUSES = ['pending', 'deferred', 'delivered', 'bounced', 'complained', 'suppressed', 'failed'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const isEmailStatus = (value: unknown): value is EmailStatus => (EMAIL_STATUSES as readonly unknown[]).includes(value);
