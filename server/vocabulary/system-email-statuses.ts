// The vocabulary of the service's own messages, declared once. Imports nothing.

export const SYSTEM_EMAIL_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type SystemEmailStatus = (typeof SYSTEM_EMAIL_STATUSES)[number];
