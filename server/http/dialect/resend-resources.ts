import type { ErrorCode } from '../../errors';

// Resend's shape, declared per resource (docs/resend.md, "The dialect"). Everything not named here
// is derived: field names camelCase → snake_case, a record gets its resource's `object`, a page
// becomes `{ object: "list", has_more, data }`. A resource is found by the longest route prefix.

export interface ResendResource {
  /** A route template (as the route table spells it) and every route below it. */
  path: string;
  /** Resend's `object` for one of its records (their API reference's word). */
  object: string;
  /** Our field (camelCase, top level of a record) → Resend's name for it, in its place. */
  renames?: Record<string, string>;
  /** Our field → another name Resend also answers it under, beside the converted one. */
  copies?: Record<string, string>;
  /** A `{ data: [...] }` answer that is not a page (Resend answers it as it is). */
  notPage?: boolean;
  /** Top-level fields copied as they are, beside OPAQUE_FIELDS: a record the customer wrote in Resend's names already. */
  opaque?: readonly string[];
}

export const RESEND_RESOURCES: readonly ResendResource[] = [
  { path: '/emails', object: 'email', copies: { status: 'last_event' } },
  // Resend's batch answer is `{ data: [{ id }] }`, one entry per message, not a page.
  { path: '/emails/batch', object: 'email', notPage: true },
  { path: '/emails/{id}/attachments', object: 'attachment' },
  { path: '/domains', object: 'domain' },
  // Resend answers a new key's secret as `token`.
  { path: '/api-keys', object: 'api_key', renames: { key: 'token' } },
  { path: '/audiences', object: 'audience' },
  { path: '/audiences/{id}/contacts', object: 'contact' },
  { path: '/segments', object: 'segment' },
  { path: '/segments/{id}/contacts', object: 'contact' },
  { path: '/contacts', object: 'contact' },
  { path: '/contacts/imports', object: 'contact_import' },
  { path: '/contacts/{idOrEmail}/segments', object: 'segment' },
  { path: '/contacts/{idOrEmail}/topics', object: 'topic' },
  { path: '/contact-properties', object: 'contact_property' },
  { path: '/topics', object: 'topic' },
  // Resend's `origin` (bounce, complaint, manual) is our reason; its `source_id` the email that caused it.
  { path: '/suppressions', object: 'suppression', copies: { reason: 'origin', emailId: 'source_id' } },
  // Resend's `variables` are the declared ones; ours (the names a template reads) keep a name of their own.
  { path: '/templates', object: 'template', renames: { declaredVariables: 'variables', variables: 'variable_names' } },
  { path: '/broadcasts', object: 'broadcast', copies: { audienceId: 'segment_id' } },
  { path: '/webhooks', object: 'webhook', renames: { url: 'endpoint', secret: 'signing_secret' } },
  { path: '/webhooks/{id}/deliveries', object: 'webhook_delivery' },
  // The event log's entries and the declared events (Resend's `event`); a schema's keys are the customer's field names.
  { path: '/events', object: 'event', opaque: ['schema'] },
  { path: '/usage', object: 'usage' },
  // Steps are answered as written (snake_case configs holding the customer's variable names).
  { path: '/automations', object: 'automation', opaque: ['steps', 'connections'] },
  { path: '/automations/{id}/runs', object: 'automation_run' },
];

/** Fields whose value is the customer's own map (property keys, header names): copied, never renamed. */
export const OPAQUE_FIELDS: ReadonlySet<string> = new Set(['properties', 'headers']);

/**
 * Resend's error `name` for each of our codes: theirs where they have one (the names their SDK
 * types list), else our code in lower case, which names the same refusal.
 */
export const RESEND_ERROR_NAMES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'validation_error',
  UNAUTHORIZED: 'missing_api_key',
  FORBIDDEN: 'restricted_api_key',
  NOT_FOUND: 'not_found',
  METHOD_NOT_ALLOWED: 'method_not_allowed',
  RATE_LIMITED: 'rate_limit_exceeded',
  DAILY_LIMIT_EXCEEDED: 'daily_quota_exceeded',
  MONTHLY_LIMIT_EXCEEDED: 'monthly_quota_exceeded',
  INTERNAL_ERROR: 'internal_server_error',
  SERVICE_UNAVAILABLE: 'application_error',
};
