import { newId } from '../../../ids';
import { DAY_MS } from '../../shared/time';
import { envelopeRecipients } from '../../../mail/message';
import { parseMailbox } from '../../shared/addresses';
import { recipientsOf, type EmailInput } from './input';
import type { EmailDraft } from './store';
import type { Principal } from '../../shared/principal';
import type { SendPermit } from './checks';
import { recipientDomain, type DraftRecipient } from '../recipients';

const IDEMPOTENCY_MS = DAY_MS;

/** What the tag filter matches: each tag's name, and its name:value. A loop, not flatMap: flatMap costs microseconds per email. */
function tagKeysOf(tags: EmailInput['tags']): string[] {
  const keys = new Set<string>();
  for (const tag of tags) {
    keys.add(tag.name);
    keys.add(tag.name + ':' + tag.value);
  }
  return [...keys];
}

/** The row and acceptance events of an email that passed every check. */
export function draftEmail(
  principal: Principal,
  input: EmailInput,
  permit: SendPermit,
  options: { now: Date; scheduledAt: Date | null; idempotencyKey?: string; id?: string },
): EmailDraft {
  const { now, scheduledAt } = options;
  const key = options.idempotencyKey;
  const { cc, bcc, tags } = input;
  const suppressed = new Set(permit.suppressed.map((recipient) => parseMailbox(recipient).address.toLowerCase()));
  // Envelope order is the VERP recipient index: a bounce names its recipient by position.
  const recipients = envelopeRecipients(input.to, cc, bcc).map(
    (address): DraftRecipient => ({ address, status: suppressed.has(address.toLowerCase()) ? 'suppressed' : 'pending' }),
  );
  const domains = new Set(recipients.map((recipient) => recipientDomain(recipient.address)));
  const row: EmailDraft['row'] = {
    id: options.id ?? newId(),
    organizationId: principal.organizationId,
    mode: principal.mode,
    domainId: permit.domain?.id ?? null,
    apiKeyId: principal.keyId,
    from: input.from,
    fromAddress: permit.sender.address.toLowerCase(),
    to: input.to,
    cc,
    bcc,
    replyTo: input.replyTo,
    recipientAddresses: [...new Set(recipientsOf(input).map((r) => parseMailbox(r).address.toLowerCase()))],
    subject: input.subject,
    html: input.html ?? null,
    text: input.text ?? null,
    headers: input.headers,
    tags,
    tagKeys: tagKeysOf(tags),
    trackOpens: input.tracking.opens ?? permit.domain?.openTracking ?? false,
    trackClicks: input.tracking.clicks ?? permit.domain?.clickTracking ?? false,
    status: scheduledAt ? 'scheduled' : 'queued',
    scheduledAt,
    nextAttemptAt: scheduledAt ?? now,
    destination: domains.size === 1 ? [...domains][0]! : null,
    idempotencyKey: key ?? null,
    idempotencyExpiresAt: key ? new Date(now.getTime() + IDEMPOTENCY_MS) : null,
    createdAt: now,
    updatedAt: now,
  };
  return {
    row,
    recipients,
    events: [
      { type: scheduledAt ? 'email.scheduled' : 'email.queued', data: scheduledAt ? { scheduledAt: scheduledAt.toISOString() } : {} },
      ...permit.suppressed.map((recipient) => ({ type: 'email.suppressed' as const, recipient, data: { reason: 'on the suppression list' } })),
    ],
  };
}
