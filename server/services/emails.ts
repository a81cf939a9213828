import { and, arrayContains, asc, eq, lt } from 'drizzle-orm';
import { emailAttachments, emailEvents, emails } from '@/db/schema';
import type { Deps } from '../deps';
import { conflict, notFound, validationError } from '../errors';
import { newId } from '../ids';
import { recordEmailEvents } from './email-events';
import { draftEmail, recipientsOf } from './email-draft';
import { storeEmails } from './email-store';
import { EMAIL_LIMITS, type BatchEmailRequest, type EmailRequest } from './email-request';
import { fetchPage, type Page } from './pagination';
import type { Principal } from './principal';
import { permitSend } from './send-checks';

const DAY_MS = 24 * 3_600_000;
export const ATTACHMENT_RETENTION_MS = 30 * DAY_MS;

type EmailRow = typeof emails.$inferSelect;

export const EMAIL_STATUSES = ['queued', 'scheduled', 'canceled', 'sending', 'sent', 'delivered', 'bounced', 'complained', 'suppressed', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

function scheduleTime(deps: Pick<Deps, 'clock'>, scheduledAt: string | undefined): Date | null {
  if (!scheduledAt) return null;
  const at = new Date(scheduledAt);
  const now = deps.clock.now().getTime();
  if (at.getTime() <= now) throw validationError('scheduled_at: must be in the future');
  if (at.getTime() > now + EMAIL_LIMITS.scheduleAheadDays * DAY_MS) {
    throw validationError(`scheduled_at: must be at most ${EMAIL_LIMITS.scheduleAheadDays} days ahead`);
  }
  return at;
}

/**
 * Accepts one email: every refusal first, then the email and its history in one statement (with
 * its attachments, in one transaction), then a wake-up for the pipeline. With an idempotency key,
 * a repeat within 24 hours (even a concurrent one) answers with the first email and stores nothing.
 */
export async function sendEmail(deps: Deps, principal: Principal, input: EmailRequest | BatchEmailRequest, options: { idempotencyKey?: string } = {}): Promise<{ id: string }> {
  const key = options.idempotencyKey;
  if (key !== undefined && (key.length === 0 || key.length > 255)) throw validationError('Idempotency-Key: must be 1 to 255 characters');
  if (key) {
    const existing = await findByIdempotencyKey(deps, principal, key);
    if (existing) return { id: existing };
  }
  const full = input as EmailRequest;
  const scheduledAt = scheduleTime(deps, full.scheduled_at);
  const permit = await permitSend(deps, principal, { from: input.from, recipients: recipientsOf(input) });
  const now = deps.clock.now();
  const draft = draftEmail(principal, input, permit, { now, scheduledAt, idempotencyKey: key });
  const id = draft.row.id!;
  const attachments = (full.attachments ?? []).map((attachment) => {
    const content = Buffer.from(attachment.content, 'base64');
    return {
      id: newId(),
      emailId: id,
      filename: attachment.filename,
      contentType: attachment.content_type ?? 'application/octet-stream',
      size: content.length,
      content,
      expiresAt: new Date(now.getTime() + ATTACHMENT_RETENTION_MS),
    };
  });
  const stored =
    !key && attachments.length === 0
      ? await storeEmails(deps.db, [draft])
      : await deps.db.transaction(async (tx) => {
          if (key) {
            // A key past its 24 hours is free again: release it so the new email can take it.
            await tx
              .update(emails)
              .set({ idempotencyKey: null })
              .where(and(eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode), eq(emails.idempotencyKey, key), lt(emails.idempotencyExpiresAt, now)));
          }
          const ids = await storeEmails(tx, [draft]);
          if (ids.has(id) && attachments.length > 0) await tx.insert(emailAttachments).values(attachments);
          return ids;
        });
  if (stored.has(id)) {
    deps.jobs.wake('email-dispatch', id);
    return { id };
  }
  // A concurrent request with the same key won the race: answer with its email.
  const winner = await findByIdempotencyKey(deps, principal, key!);
  if (!winner) throw conflict('A request with this Idempotency-Key is in progress; retry');
  return { id: winner };
}

async function findByIdempotencyKey(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, key: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ id: emails.id, expiresAt: emails.idempotencyExpiresAt })
    .from(emails)
    .where(and(eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode), eq(emails.idempotencyKey, key)));
  return row && row.expiresAt && row.expiresAt > deps.clock.now() ? row.id : null;
}

export interface EmailFilter {
  limit: number;
  cursor?: string;
  status?: string;
  from?: string;
  to?: string;
  tag?: string[];
}

export interface EmailSummary {
  id: string;
  from: string;
  to: string[];
  subject: string;
  status: EmailStatus;
  tags: Array<{ name: string; value: string }>;
  scheduledAt: string | null;
  createdAt: string;
}

/** The columns a summary needs: a list page never reads the bodies. */
const SUMMARY_COLUMNS = {
  id: emails.id,
  from: emails.from,
  to: emails.to,
  subject: emails.subject,
  status: emails.status,
  tags: emails.tags,
  scheduledAt: emails.scheduledAt,
  createdAt: emails.createdAt,
};

type SummaryRow = Pick<EmailRow, keyof typeof SUMMARY_COLUMNS>;

const summary = (row: SummaryRow): EmailSummary => ({
  id: row.id,
  from: row.from,
  to: row.to,
  subject: row.subject,
  status: row.status as EmailStatus,
  tags: row.tags,
  scheduledAt: row.scheduledAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** Newest first; every filter ANDed; a test key sees test emails and a live key live ones. */
export async function listEmails(deps: Pick<Deps, 'db'>, principal: Principal, filter: EmailFilter): Promise<Page<EmailSummary>> {
  const page = await fetchPage(emails.id, filter, ({ where, orderBy, limit }) =>
    deps.db
      .select(SUMMARY_COLUMNS)
      .from(emails)
      .where(
        and(
          eq(emails.organizationId, principal.organizationId),
          eq(emails.mode, principal.mode),
          filter.status ? eq(emails.status, filter.status) : undefined,
          filter.from ? eq(emails.fromAddress, filter.from.trim().toLowerCase()) : undefined,
          filter.to ? arrayContains(emails.recipientAddresses, [filter.to.trim().toLowerCase()]) : undefined,
          filter.tag?.length ? arrayContains(emails.tagKeys, filter.tag) : undefined,
          where,
        ),
      )
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: page.data.map(summary), nextCursor: page.nextCursor };
}

async function ownEmail(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<EmailRow> {
  const [row] = await deps.db
    .select()
    .from(emails)
    .where(and(eq(emails.id, id), eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode)));
  if (!row) throw notFound('Email');
  return row;
}

export async function getEmail(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string) {
  const row = await ownEmail(deps, principal, id);
  const [history, attachments] = await Promise.all([
    deps.db.select().from(emailEvents).where(eq(emailEvents.emailId, id)).orderBy(asc(emailEvents.id)),
    deps.db
      .select({ id: emailAttachments.id, filename: emailAttachments.filename, contentType: emailAttachments.contentType, size: emailAttachments.size, expiresAt: emailAttachments.expiresAt })
      .from(emailAttachments)
      .where(eq(emailAttachments.emailId, id))
      .orderBy(asc(emailAttachments.id)),
  ]);
  return {
    ...summary(row),
    cc: row.cc,
    bcc: row.bcc,
    replyTo: row.replyTo,
    html: row.html,
    text: row.text,
    headers: row.headers,
    tracking: { opens: row.trackOpens, clicks: row.trackClicks },
    attachments: attachments.map((a) => ({ id: a.id, filename: a.filename, contentType: a.contentType, size: a.size, expired: a.expiresAt <= deps.clock.now() })),
    events: history.map((event) => ({ type: event.type, recipient: event.recipient, data: event.data, createdAt: event.createdAt.toISOString() })),
  };
}

/**
 * Changes a scheduled email's send time. The update only matches while the email is still
 * scheduled, so it cannot race the dispatcher: either it moves the time, or it is a 409.
 */
export async function rescheduleEmail(deps: Deps, principal: Principal, id: string, scheduledAtInput: string) {
  const scheduledAt = scheduleTime(deps, scheduledAtInput)!;
  const row = await ownEmail(deps, principal, id);
  const updated = await deps.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(emails)
      .set({ scheduledAt, nextAttemptAt: scheduledAt, updatedAt: deps.clock.now() })
      .where(and(eq(emails.id, row.id), eq(emails.status, 'scheduled')))
      .returning();
    if (changed) await recordEmailEvents(tx, deps, changed, [{ type: 'email.scheduled', data: { scheduledAt: scheduledAt.toISOString() } }]);
    return changed;
  });
  if (!updated) throw conflict(`The email is ${row.status === 'scheduled' ? 'being sent' : row.status}, no longer scheduled`);
  deps.jobs.wake('email-dispatch', row.id);
  return { id: row.id, scheduledAt: scheduledAt.toISOString() };
}

/** Cancels a scheduled email, atomically against the dispatcher: cancelled and never sent, or a 409. */
export async function cancelEmail(deps: Deps, principal: Principal, id: string) {
  const row = await ownEmail(deps, principal, id);
  const canceled = await deps.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(emails)
      .set({ status: 'canceled', nextAttemptAt: null, updatedAt: deps.clock.now() })
      .where(and(eq(emails.id, row.id), eq(emails.status, 'scheduled')))
      .returning();
    if (changed) await recordEmailEvents(tx, deps, changed, [{ type: 'email.canceled' }]);
    return changed;
  });
  if (!canceled) throw conflict(`The email is ${row.status === 'scheduled' ? 'being sent' : row.status}, no longer scheduled`);
  return { id: row.id, status: 'canceled' as const };
}
