import type { SubscriptionColumnKind } from '@/server/vocabulary/contact-imports';

/** What a yes in the subscription column means: the column lists who is subscribed, or who unsubscribed (Resend's export: `unsubscribed`). */
export type SubscriptionColumn = SubscriptionColumnKind;

// The import reads the cells the same way (server/services/contact-imports/cells.ts).
export { parseSubscription } from '@/server/services/contact-imports/cells';
