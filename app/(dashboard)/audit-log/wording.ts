import { AUDIT_ACTION_GROUPS, type AuditActionGroup } from '@/server/vocabulary/audit';
import type { AuditAction, AuditEvent } from './types';

/** Each action as the table says it. */
export const ACTION_WORDS: Record<AuditAction, string> = {
  'api_key.created': 'Created an API key',
  'api_key.revoked': 'Revoked an API key',
  'domain.updated': 'Changed a domain’s tracking',
  'domain.deleted': 'Deleted a domain',
  'webhook.created': 'Added a webhook endpoint',
  'webhook.updated': 'Changed a webhook endpoint',
  'webhook.deleted': 'Deleted a webhook endpoint',
  'webhook.secret_rotated': 'Rotated a webhook signing secret',
  'organization.plan_changed': 'Changed the plan',
  'organization.status_changed': 'Changed the sending status',
  'organization.overage_changed': 'Switched metered overage',
  'organization.review_changed': 'Changed the account review',
  'organization.rate_limit_changed': 'Changed the API rate limit',
  'organization.owner_confirmed': 'Confirmed the owner’s address',
  'user.signed_in': 'Signed in',
  'user.sign_in_failed': 'Sign-in refused',
  'recipient.erased': 'Erased a recipient’s data',
};

export const GROUP_WORDS: Record<AuditActionGroup, string> = {
  api_key: 'API keys',
  domain: 'Domains',
  webhook: 'Webhooks',
  organization: 'Plan and account',
  user: 'Sign-ins',
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
  }
}

const countOf = (value: unknown, noun: string) => `${String(value ?? 0)} ${value === 1 ? noun : `${noun}s`}`;
const onOff = (value: unknown) => (value === true ? 'on' : value === false ? 'off' : String(value));
const limit = (value: unknown) => (value === null ? 'plan default' : `${String(value)} per 10 s`);

/** The change itself, when the row says more than its action: from and to, or why. */
export function detailWords(event: AuditEvent): string | null {
  const details = event.details as Record<string, any>;
  switch (event.action) {
    case 'organization.plan_changed':
      return `${details.from} → ${details.to}${details.kind === 'downgrade' && details.effectiveAt ? ` from ${String(details.effectiveAt).slice(0, 10)}` : ''}`;
    case 'organization.status_changed':
      return `${details.from} → ${details.to}`;
    case 'organization.overage_changed':
      return `${onOff(details.from)} → ${onOff(details.to)}`;
    case 'organization.review_changed':
      return details.to ? 'approved' : 'approval withdrawn';
    case 'organization.rate_limit_changed':
      return `${limit(details.from)} → ${limit(details.to)}`;
    case 'organization.owner_confirmed':
      return details.via === 'operator' ? 'vouched for by the operator' : 'by the mailed link';
    case 'api_key.revoked':
      return details.reason === 'domain_deleted' ? 'its domain was deleted' : null;
    case 'user.signed_in':
      return details.via === '/sign-up/email' ? 'on signing up' : null;
    case 'user.sign_in_failed':
      return details.reason === 'INVALID_EMAIL_OR_PASSWORD' ? 'wrong password' : null;
    case 'recipient.erased':
      return `${countOf(details.emails, 'email')}, ${countOf(details.events, 'event')}, ${countOf(details.contacts, 'contact')}${details.suppressionKept ? '; suppression kept as a hash' : ''}`;
    case 'domain.updated':
      return [details.openTracking && `open tracking ${onOff(details.openTracking.to)}`, details.clickTracking && `click tracking ${onOff(details.clickTracking.to)}`].filter(Boolean).join(', ') || null;
    case 'webhook.updated':
      return [details.url ? 'URL' : null, details.events ? 'events' : null].filter(Boolean).join(' and ') || null;
    default:
      return null;
  }
}
