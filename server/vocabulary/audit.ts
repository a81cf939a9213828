/** Who made a change: a person in the dashboard, an API key, the operator's CLI, or the payment provider's reports (billing). */
export const AUDIT_ACTOR_KINDS = ['user', 'api_key', 'operator', 'billing'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** Every change the audit log records, declared once: the table's column, the listing's filter and the dashboard's words. */
export const AUDIT_ACTIONS = [
  'api_key.created',
  'api_key.renamed',
  'api_key.revoked',
  'domain.created',
  'domain.updated',
  'domain.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  'audience.created',
  'audience.deleted',
  'audience.updated',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contact.imported',
  'contact.batch_deleted',
  'contact.topics_updated',
  'contact_property.created',
  'contact_property.updated',
  'contact_property.deleted',
  'topic.created',
  'topic.updated',
  'topic.deleted',
  'form.created',
  'form.updated',
  'form.deleted',
  'automation.created',
  'automation.updated',
  'automation.stopped',
  'automation.deleted',
  'custom_event.created',
  'custom_event.updated',
  'custom_event.deleted',
  'suppression.added',
  'suppression.imported',
  'suppression.removed',
  'template.created',
  'template.updated',
  'template.published',
  'template.deleted',
  'broadcast.created',
  'broadcast.updated',
  'broadcast.scheduled',
  'broadcast.sent',
  'broadcast.resumed',
  'broadcast.cancelled',
  'broadcast.deleted',
  'organization.plan_changed',
  'organization.plan_requested',
  'organization.plan_request_withdrawn',
  'organization.status_changed',
  'organization.overage_changed',
  'organization.review_changed',
  'organization.rate_limit_changed',
  'organization.owner_confirmed',
  'organization.two_factor_requirement_changed',
  'organization.ownership_transferred',
  'organization.renamed',
  'organization.notification_address_requested',
  'organization.notification_address_confirmed',
  'organization.notification_address_reset',
  'organization.deletion_requested',
  'organization.deletion_cancelled',
  'billing.payment_failed',
  'billing.restricted_for_non_payment',
  'billing.payment_recovered',
  'invitation.sent',
  'invitation.accepted',
  'invitation.revoked',
  'member.role_changed',
  'member.removed',
  'member.left',
  'user.signed_in',
  'user.sign_in_failed',
  'user.password_reset_requested',
  'user.password_reset',
  'user.password_changed',
  'user.sessions_signed_out',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'recipient.erased',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const isAuditAction = (value: unknown): value is AuditAction => typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);

/**
 * What an action was done to. A `recipient` is a data subject's address, named by its keyed hash only (docs/privacy.md), never
 * in clear; a `contact` or `suppression` is labelled with its address until that address is erased.
 */
export const AUDIT_TARGET_TYPES = ['api_key', 'domain', 'webhook', 'audience', 'contact', 'contact_import', 'contact_property', 'topic', 'form', 'automation', 'custom_event', 'suppression', 'template', 'broadcast', 'organization', 'user', 'recipient', 'invitation', 'member'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The groups the dashboard filters by: the part of an action before the dot. */
export const AUDIT_ACTION_GROUPS = ['api_key', 'domain', 'webhook', 'audience', 'contact', 'contact_property', 'topic', 'form', 'automation', 'custom_event', 'suppression', 'template', 'broadcast', 'organization', 'billing', 'invitation', 'member', 'user', 'recipient'] as const;
export type AuditActionGroup = (typeof AUDIT_ACTION_GROUPS)[number];

export const actionsOfGroup = (group: AuditActionGroup): AuditAction[] => AUDIT_ACTIONS.filter((action) => action.startsWith(`${group}.`));
