import { systemEmails } from '@/db/schema';
import type { Db } from '@/db/client';
import type { RenderedEmail } from '@/emails/layout';
import type { Deps } from '../../deps';
import { newId } from '../../ids';

/** One of our own messages as its cause hands it to the admit door. */
export interface SystemMessage {
  organizationId: string | null;
  kind: string;
  to: string;
  email: RenderedEmail;
}

/**
 * The system-mail store behind the admit door: the outbox row, in the caller's transaction, due
 * now. Apart from customers' emails, so it never counts against their limits nor shows in their list.
 */
export async function storeSystemEmail(tx: Db, deps: Pick<Deps, 'clock'>, message: SystemMessage): Promise<string> {
  const id = newId();
  const now = deps.clock.now();
  await tx.insert(systemEmails).values({
    id,
    organizationId: message.organizationId,
    kind: message.kind,
    toAddress: message.to,
    subject: message.email.subject,
    html: message.email.html,
    text: message.email.text,
    nextAttemptAt: now,
    createdAt: now,
  });
  return id;
}
