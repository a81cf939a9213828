import { formatDateTime } from '../../lib/format';
import type { AuditEvent } from './types';

const countOf = (value: unknown, noun: string, plural = `${noun}s`) => `${Number(value ?? 0).toLocaleString('en')} ${value === 1 ? noun : plural}`;
/** "name and subject": the fields a change touched, as the table names them. */
const fieldList = (value: unknown) => (Array.isArray(value) ? value.map((field) => FIELD_WORDS[String(field)] ?? String(field)).join(', ') : '');
const FIELD_WORDS: Record<string, string> = { audienceId: 'audience', topicId: 'topic', replyTo: 'reply-to', templateId: 'template', html: 'HTML', text: 'text', name: 'name', subject: 'subject', from: 'from' };
const trackingWords = (details: Record<string, any>) =>
  [details.openTracking && `open tracking ${onOff(details.openTracking.to)}`, details.clickTracking && `click tracking ${onOff(details.clickTracking.to)}`].filter(Boolean).join(', ') ||
  null;
/** A count of batches, said only when the operation took more than one request. */
const batchesWords = (value: unknown) => (Number(value) > 1 ? ` in ${String(value)} batches` : '');
const inAudience = (details: Record<string, any>) => (details.audience ? `in ${details.audience}` : null);
/** "joined Product news; left Offers": the topics a change moved the contact into or out of. */
const topicWords = (value: unknown) => {
  const changes: Array<{ name?: unknown; to?: unknown }> = Array.isArray(value) ? value : [];
  const named = (to: string) => changes.filter((change) => change.to === to).map((change) => String(change.name));
  return [named('opt_in').length ? `joined ${named('opt_in').join(', ')}` : '', named('opt_out').length ? `left ${named('opt_out').join(', ')}` : ''].filter(Boolean).join('; ') || null;
};
const onOff = (value: unknown) => (value === true ? 'on' : value === false ? 'off' : String(value));
const limit = (value: unknown) => (value === null ? 'plan default' : `${String(value)} per 10 s`);

/** The change itself, when the row says more than its action: from and to, or why. */
export function detailWords(event: AuditEvent): string | null {
  const details = event.details as Record<string, any>;
  switch (event.action) {
    case 'organization.plan_changed':
      return `${details.from} → ${details.to}${details.kind === 'downgrade' && details.effectiveAt ? ` from ${String(details.effectiveAt).slice(0, 10)}` : ''}`;
    case 'organization.plan_requested':
    case 'organization.plan_request_withdrawn':
    case 'organization.status_changed':
      return `${details.from} → ${details.to}`;
    case 'organization.overage_changed':
      return `${onOff(details.from)} → ${onOff(details.to)}`;
    case 'organization.review_changed':
      return details.to ? 'approved' : 'approval withdrawn';
    case 'organization.rate_limit_changed':
      return `${limit(details.from)} → ${limit(details.to)}`;
    case 'organization.two_factor_requirement_changed':
      return details.to ? 'required of every member' : 'no longer required';
    case 'organization.owner_confirmed':
      return details.via === 'operator' ? 'vouched for by the operator' : 'by the mailed link';
    case 'member.role_changed':
      return `${details.from} → ${details.to}`;
    case 'member.removed':
    case 'member.left':
      return `was ${details.role}`;
    case 'organization.renamed':
      return `${details.from} → ${details.to}`;
    case 'organization.notification_address_requested':
      return `a link was mailed to it; notices go to ${details.current} until it is used`;
    case 'organization.notification_address_confirmed':
      return 'by the mailed link';
    case 'organization.notification_address_reset':
      return details.from ? `instead of ${details.from}` : `${details.droppedPending} no longer waits for confirmation`;
    case 'organization.deletion_requested':
      return `erased after ${String(details.eraseAfter).slice(0, 10)} unless cancelled`;
    case 'organization.deletion_cancelled':
      return `it was to be erased after ${String(details.eraseAfter).slice(0, 10)}`;
    case 'invitation.sent':
      return `as ${details.role}${details.resent ? ', resent' : ''}`;
    case 'invitation.accepted':
    case 'invitation.revoked':
      return `as ${details.role}`;
    case 'organization.ownership_transferred':
      return `${details.from} → ${details.to}; the former owner is now an admin`;
    case 'api_key.created':
      return details.dialect === 'resend' ? "answers in Resend's shapes" : null;
    case 'api_key.revoked':
      return details.reason === 'domain_deleted' ? 'its domain was deleted' : null;
    case 'user.signed_in':
      return details.via === '/sign-up/email' ? 'on signing up' : null;
    case 'user.sign_in_failed':
      return details.reason === 'INVALID_EMAIL_OR_PASSWORD' ? 'wrong password' : null;
    case 'user.password_reset':
      return 'by the mailed link; every session signed out';
    case 'user.password_changed':
      return details.otherSessionsSignedOut ? 'other sessions signed out' : null;
    case 'user.sessions_signed_out':
      return details.scope === 'others' ? countOf(details.sessions, 'other session') : (details.device ?? null);
    case 'recipient.erased':
      return `${countOf(details.emails, 'email')}, ${countOf(details.events, 'event')}, ${countOf(details.contacts, 'contact')}${details.suppressionKept ? '; suppression kept as a hash' : ''}`;
    case 'webhook.updated':
      return [details.url ? 'URL' : null, details.events ? 'events' : null].filter(Boolean).join(' and ') || null;
    case 'api_key.renamed':
      return `${details.name?.from} → ${details.name?.to}`;
    case 'domain.created':
      return details.openTracking || details.clickTracking ? `tracking: ${[details.openTracking && 'opens', details.clickTracking && 'clicks'].filter(Boolean).join(' and ')}` : null;
    case 'domain.updated':
      return trackingWords(details);
    case 'audience.deleted':
      return `with ${countOf(details.contacts, 'contact')}`;
    case 'contact.created':
      return [inAudience(details), details.subscribed === false ? 'unsubscribed' : null].filter(Boolean).join(', ') || null;
    case 'contact.updated': {
      const fields: unknown[] = Array.isArray(details.fields) ? details.fields : [];
      const subscription = fields.includes('subscribed') ? (details.subscribed ? 'subscribed again' : 'unsubscribed') : null;
      // A double opt-in the organization settled itself (docs/consent.md): subscribed or not, no longer pending.
      const settled = fields.includes('pending') ? (details.unsubscribed === false ? 'subscribed without confirmation' : 'no longer pending confirmation') : null;
      return [inAudience(details), subscription, settled, fields.includes('name') ? 'name changed' : null].filter(Boolean).join(', ') || null;
    }
    case 'contact.deleted':
      return inAudience(details);
    case 'contact.imported':
      return `${Number(details.created ?? 0).toLocaleString('en')} added, ${Number(details.updated ?? 0).toLocaleString('en')} updated${batchesWords(details.batches)}`;
    case 'contact.batch_deleted':
      return `${countOf(details.deleted, 'contact')}${batchesWords(details.batches)}`;
    case 'contact.topics_updated':
      return topicWords(details.topics);
    case 'suppression.added':
    case 'suppression.removed':
      return details.reason ? `reason: ${details.reason}` : null;
    case 'suppression.imported':
      return `${countOf(details.added, 'address', 'addresses')}${batchesWords(details.batches)}`;
    case 'template.updated':
    case 'broadcast.updated': {
      const fields = fieldList(details.fields);
      const schedule = 'scheduledAt' in details ? (details.scheduledAt ? `scheduled for ${formatDateTime(details.scheduledAt)}` : 'unscheduled') : '';
      const renamed = details.name?.from ? `renamed from ${details.name.from}` : '';
      return [fields && `changed ${fields}`, renamed, schedule].filter(Boolean).join('; ') || null;
    }
    case 'broadcast.scheduled':
      return details.scheduledAt ? `for ${formatDateTime(details.scheduledAt)}` : null;
    case 'broadcast.cancelled':
      return details.emailsWithdrawn ? `${countOf(details.emailsWithdrawn, 'queued email')} withdrawn` : null;
    default:
      return null;
  }
}
