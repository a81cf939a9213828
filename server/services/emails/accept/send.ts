import { and, eq, lt } from 'drizzle-orm';
import { emailAttachments, emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import { conflict } from '../../../errors';
import { newId } from '../../../ids';
import type { Principal } from '../../shared/principal';
import { ATTACHMENT_RETENTION_MS } from '../attachments';
import { scheduleTime } from '../schedule-time';
import { permitSend } from './checks';
import { draftEmail } from './draft';
import { recipientsOf, type EmailRequest, type SendEmailInput } from './input';
import { storeEmails } from './store';
import { withContent } from './template-content';

/**
 * Accepts one email: every refusal first, then the email and its history in one statement (with
 * its attachments, in one transaction), then a wake-up for the pipeline. With an idempotency key,
 * a repeat within 24 hours (even a concurrent one) answers with the first email and stores nothing.
 * An email from a template is stored as it renders.
 */
export async function sendEmail(deps: Deps, principal: Principal, request: EmailRequest<SendEmailInput>): Promise<{ id: string }> {
  const key = request.idempotencyKey;
  if (key) {
    const existing = await findByIdempotencyKey(deps, principal, key);
    if (existing) return { id: existing };
  }
  const input = await withContent(deps, principal, request);
  const scheduledAt = scheduleTime(deps, input.scheduledAt);
  const permit = await permitSend(deps, principal, { from: input.from, recipients: recipientsOf(input) });
  const now = deps.clock.now();
  const draft = draftEmail(principal, input, permit, { now, scheduledAt, idempotencyKey: key });
  const id = draft.row.id!;
  const attachments = input.attachments.map((attachment) => ({
    id: newId(),
    emailId: id,
    filename: attachment.filename,
    contentType: attachment.contentType,
    size: attachment.content.length,
    content: attachment.content,
    expiresAt: new Date(now.getTime() + ATTACHMENT_RETENTION_MS),
  }));
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
          const result = await storeEmails(tx, [draft]);
          if (result.stored.has(id) && attachments.length > 0) await tx.insert(emailAttachments).values(attachments);
          return result;
        });
  if (stored.deliveriesQueued) deps.jobs.wake('webhook-delivery', []);
  if (stored.stored.has(id)) {
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
