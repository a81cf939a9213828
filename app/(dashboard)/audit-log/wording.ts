import { AUDIT_ACTION_GROUPS, type AuditActionGroup } from '@/server/vocabulary/audit';
import type { AuditAction, AuditEvent } from './types';

/** Each action as the table says it. */
export const ACTION_WORDS: Record<AuditAction, string> = {
  'api_key.created': 'Created an API key',
  'api_key.renamed': 'Renamed an API key',
  'api_key.revoked': 'Revoked an API key',
  'domain.created': 'Added a domain',
  'domain.updated': 'Changed a domain',
  'domain.deleted': 'Deleted a domain',
  'webhook.created': 'Added a webhook endpoint',
  'webhook.updated': 'Changed a webhook endpoint',
  'webhook.deleted': 'Deleted a webhook endpoint',
  'webhook.secret_rotated': 'Rotated a webhook signing secret',
  'audience.created': 'Created an audience',
  'audience.deleted': 'Deleted an audience',
  'audience.updated': 'Changed a segment',
  'contact.created': 'Added a contact',
  'contact.updated': 'Changed a contact',
  'contact.deleted': 'Deleted a contact',
  'contact.imported': 'Imported contacts',
  'contact.batch_deleted': 'Deleted contacts',
  'contact.topics_updated': 'Changed a contact’s topics',
  'contact_property.created': 'Created a contact property',
  'contact_property.updated': 'Changed a contact property',
  'contact_property.deleted': 'Deleted a contact property',
  'topic.created': 'Created a topic',
  'topic.updated': 'Changed a topic',
  'topic.deleted': 'Deleted a topic',
  'form.created': 'Created a sign-up form',
  'form.updated': 'Changed a sign-up form',
  'form.deleted': 'Deleted a sign-up form',
  'automation.created': 'Created an automation',
  'automation.updated': 'Changed an automation',
  'automation.stopped': 'Stopped an automation',
  'automation.deleted': 'Deleted an automation',
  'custom_event.created': 'Declared an event',
  'custom_event.updated': 'Changed a declared event’s schema',
  'custom_event.deleted': 'Deleted a declared event',
  'suppression.added': 'Suppressed an address',
  'suppression.imported': 'Imported suppressions',
  'suppression.removed': 'Removed a suppression',
  'template.created': 'Created a template',
  'template.updated': 'Changed a template',
  'template.published': 'Published a template',
  'template.deleted': 'Deleted a template',
  'broadcast.created': 'Created a broadcast',
  'broadcast.updated': 'Changed a broadcast',
  'broadcast.scheduled': 'Scheduled a broadcast',
  'broadcast.sent': 'Sent a broadcast',
  'broadcast.resumed': 'Resumed a held broadcast',
  'broadcast.cancelled': 'Cancelled a broadcast',
  'broadcast.deleted': 'Deleted a broadcast',
  'organization.plan_changed': 'Changed the plan',
  'organization.plan_requested': 'Asked for a plan change',
  'organization.plan_request_withdrawn': 'Withdrew a plan change request',
  'organization.status_changed': 'Changed the sending status',
  'organization.overage_changed': 'Switched metered overage',
  'organization.review_changed': 'Changed the account review',
  'organization.rate_limit_changed': 'Changed the API rate limit',
  'organization.owner_confirmed': 'Confirmed the owner’s address',
  'organization.two_factor_requirement_changed': 'Changed the two-factor requirement',
  'organization.ownership_transferred': 'Transferred ownership',
  'organization.renamed': 'Renamed the organization',
  'organization.notification_address_requested': 'Asked for a new notification address',
  'organization.notification_address_confirmed': 'Confirmed the notification address',
  'organization.notification_address_reset': 'Sent notices to the owner again',
  'organization.deletion_requested': 'Asked to delete the organization',
  'organization.deletion_cancelled': 'Cancelled the organization’s deletion',
  'billing.payment_failed': 'A renewal payment failed',
  'billing.restricted_for_non_payment': 'Restricted sending: a renewal is unpaid',
  'billing.payment_recovered': 'A failed renewal was paid',
  'invitation.sent': 'Invited a person',
  'invitation.accepted': 'Accepted an invitation',
  'invitation.revoked': 'Revoked an invitation',
  'member.role_changed': 'Changed a member’s role',
  'member.removed': 'Removed a member',
  'member.left': 'Left the organization',
  'user.signed_in': 'Signed in',
  'user.sign_in_failed': 'Sign-in refused',
  'user.password_reset_requested': 'Asked for a password reset',
  'user.password_reset': 'Reset the password',
  'user.password_changed': 'Changed the password',
  'user.sessions_signed_out': 'Signed out sessions',
  'user.two_factor_enabled': 'Turned on two-factor sign-in',
  'user.two_factor_disabled': 'Turned off two-factor sign-in',
  'recipient.erased': 'Erased a recipient’s data',
};

export const GROUP_WORDS: Record<AuditActionGroup, string> = {
  api_key: 'API keys',
  domain: 'Domains',
  webhook: 'Webhooks',
  audience: 'Audiences',
  contact: 'Contacts',
  contact_property: 'Contact properties',
  topic: 'Topics',
  form: 'Sign-up forms',
  automation: 'Automations',
  custom_event: 'Declared events',
  suppression: 'Suppressions',
  template: 'Templates',
  broadcast: 'Broadcasts',
  organization: 'Plan and account',
  billing: 'Payments',
  invitation: 'Invitations',
  member: 'Team members',
  user: 'Sign-ins, passwords and two-factor',
  recipient: 'Data-subject erasures',
};

export const isActionGroup = (value: string | null): value is AuditActionGroup => (AUDIT_ACTION_GROUPS as readonly string[]).includes(value ?? '');

/** Who did it, in words: the person's email, the key's name and prefix, or the operator. */
export function actorWords(actor: AuditEvent['actor']): { primary: string; secondary: string } {
  switch (actor.kind) {
    case 'user':
      return { primary: actor.label ?? 'A person no longer here', secondary: 'Dashboard' };
    case 'api_key':
      return { primary: actor.label ?? 'A deleted API key', secondary: 'API key' };
    case 'operator':
      return { primary: 'EU Mail support', secondary: 'Operator' };
    case 'billing':
      return { primary: 'Billing', secondary: 'Payment provider' };
  }
}
