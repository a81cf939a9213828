import { and, eq, lt } from 'drizzle-orm';
import { findByIdempotencyKey } from './idempotency';
import { emailAttachments, emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import { conflict } from '../../../errors';
import { newId } from '../../../ids';
import type { Principal } from '../../shared/principal';
import { ATTACHMENT_RETENTION_MS } from '../attachments';
import { draftEmail } from './draft';
import { evaluateSend } from './evaluate';
import type { EmailRequest, SendEmailInput } from './input';
import { storeEmails, type EmailDraft, type StoreResult } from './store';
import { storeWithinLimits } from './within-limits';
import { storeSingle } from './coalesced-store';
import type { Reservation } from '../../plans/sending-limits';

/**
 * Accepts one email: every refusal first (evaluate.ts, then the limits), then the email and its history in one statement (with
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
  const { input, scheduledAt, permit, context } = await evaluateSend(deps, principal, request);
  const now = deps.clock.now();
  const draft = draftEmail(principal, input, permit, { now, scheduledAt, idempotencyKey: key });
  if (input.submittedVia) draft.row.submittedVia = input.submittedVia;
  const id = draft.row.id!;
  const attachments = input.attachments.map((attachment) => ({
    id: newId(),
    emailId: id,
    filename: attachment.filename,
    contentType: attachment.contentType,
    contentId: attachment.contentId ?? null,
    size: attachment.content.length,
    content: attachment.content,
    expiresAt: new Date(now.getTime() + ATTACHMENT_RETENTION_MS),
  }));
  const candidate = { draft, recipients: permit.deliverable.length, listShaped: false };
  if (!key && attachments.length === 0) {
    const outcome = await storeSingle(deps, principal, context, candidate);
    if (outcome.refusal) throw outcome.refusal;
    if (!outcome.stored) throw new Error(`email ${id} has no idempotency key, yet it was not stored`);
    if (outcome.deliveriesQueued) deps.jobs.wake('webhook-delivery', []);
    deps.jobs.wake('email-dispatch', id);
    return { id };
  }
  const store = async (drafts: EmailDraft[], reservation: Reservation | null): Promise<StoreResult> => {
    try {
      return await deps.db.transaction(async (tx) => {
        if (key) {
          // A key past its 24 hours is free again: release it so the new email can take it.
          await tx
            .update(emails)
            .set({ idempotencyKey: null })
            .where(and(eq(emails.organizationId, principal.organizationId), eq(emails.mode, principal.mode), eq(emails.idempotencyKey, key), lt(emails.idempotencyExpiresAt, now)));
        }
        const result = await storeEmails(tx, drafts, reservation);
        // Counted but not stored: a concurrent request took the key. Roll the count back with the transaction.
        if (reservation && result.reserved && !result.stored.has(id)) throw new LostKeyRace();
        if (result.stored.has(id) && attachments.length > 0) await tx.insert(emailAttachments).values(attachments);
        return result;
      });
    } catch (error) {
      if (error instanceof LostKeyRace) return { stored: new Set(), deliveriesQueued: false, reserved: true, monthRecipients: null };
      throw error;
    }
  };
  const { refusals, result: stored } = await storeWithinLimits(deps, principal, context, 'transactional', [candidate], store);
  if (refusals[0]) throw refusals[0];
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

class LostKeyRace extends Error {}
