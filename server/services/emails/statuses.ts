/** The states of an email, in the order of its life; the API, the schema and the dashboard use this list. */
export const EMAIL_STATUSES = ['queued', 'scheduled', 'canceled', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'suppressed', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
