// A broadcast's states and the reasons it waits, declared once (schema, services, OpenAPI). Imports nothing.

export const BROADCAST_STATUSES = ['draft', 'scheduled', 'sending', 'held', 'sent', 'cancelled', 'failed'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** review: until an operator approves the account; daily_limit, monthly_limit: until the limit resets. */
export const HOLD_REASONS = ['review', 'daily_limit', 'monthly_limit'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** Content and schedule may still change. */
export const EDITABLE: readonly BroadcastStatus[] = ['draft', 'scheduled'];
/** A cancel stops these. */
export const CANCELLABLE: readonly BroadcastStatus[] = ['scheduled', 'sending', 'held'];
/** Only these may be deleted. */
export const DELETABLE: readonly BroadcastStatus[] = ['draft', 'cancelled'];
/** These keep their audience from being deleted. */
export const HOLDING_AUDIENCE: readonly BroadcastStatus[] = ['scheduled', 'sending', 'held'];
