import { and, eq, lt } from 'drizzle-orm';
import { emailAttachments, emails } from '@/db/schema';
import type { Deps } from '../../../deps';
import { newId } from '../../../ids';
import type { Reservation } from '../../plans/sending-limits';
import type { Principal } from '../../shared/principal';
import { ATTACHMENT_RETENTION_MS } from '../attachments';
import type { AttachmentInput } from './input';
import { storeEmails, type EmailDraft, type StoreResult } from './store';
import { nothingStored } from './within-limits';

class LostKeyRace extends Error {}

/**
 * The store of an email with an Idempotency-Key or attachments: one transaction that frees its
 * key when past its 24 hours, stores the email (skipped when a concurrent request took the key),
 * and its attachments beside it. Counted but not stored means a concurrent request won the key:
 * the transaction rolls back, so the count goes with it, and nothing is answered stored.
 */
export function keyedStore(deps: Pick<Deps, 'db'>, principal: Principal, draft: EmailDraft, attachments: AttachmentInput[]) {
  const { id, idempotencyKey: key, createdAt: now } = draft.row;
  const rows = attachments.map((attachment) => ({
    id: newId(),
    emailId: id,
    filename: attachment.filename,
    contentType: attachment.contentType,
    contentId: attachment.contentId ?? null,
    size: attachment.content.length,
    content: attachment.content,
    expiresAt: new Date(now.getTime() + ATTACHMENT_RETENTION_MS),
  }));
  return async (drafts: EmailDraft[], reservation: Reservation | null): Promise<StoreResult> => {
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
        if (reservation && result.reserved && !result.stored.has(id)) throw new LostKeyRace();
        if (result.stored.has(id) && rows.length > 0) await tx.insert(emailAttachments).values(rows);
        return result;
      });
    } catch (error) {
      if (error instanceof LostKeyRace) return nothingStored();
      throw error;
    }
  };
}
