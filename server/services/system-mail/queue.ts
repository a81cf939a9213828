import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { systemEmails } from '@/db/schema';
import type { Db } from '@/db/client';
import type { RenderedEmail } from '@/emails/layout';
import type { Deps } from '../../deps';
import { newId } from '../../ids';

const MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 30_000;

/** Queues one of our own messages in the caller's transaction, so it exists exactly when the change that caused it does. */
export async function enqueueSystemEmail(
  tx: Db,
  deps: Pick<Deps, 'clock'>,
  input: { organizationId: string | null; kind: string; to: string; email: RenderedEmail },
): Promise<string> {
  const id = newId();
  const now = deps.clock.now();
  await tx.insert(systemEmails).values({
    id,
    organizationId: input.organizationId,
    kind: input.kind,
    toAddress: input.to,
    subject: input.email.subject,
    html: input.email.html,
    text: input.email.text,
    nextAttemptAt: now,
    createdAt: now,
  });
  return id;
}

/** Claims one due message by an atomic status change, so two workers never send it twice. */
async function claim(deps: Deps, id: string) {
  const [row] = await deps.db
    .update(systemEmails)
    .set({ status: 'sending', attempts: sql`${systemEmails.attempts} + 1` })
    .where(and(eq(systemEmails.id, id), eq(systemEmails.status, 'pending'), lte(systemEmails.nextAttemptAt, deps.clock.now())))
    .returning();
  return row;
}

export async function deliverSystemEmail(deps: Deps, id: string): Promise<'sent' | 'retry' | 'failed' | 'skipped'> {
  const row = await claim(deps, id);
  if (!row) return 'skipped';
  try {
    await deps.systemMailer.send({ from: deps.config.systemMailFrom, to: row.toAddress, subject: row.subject, html: row.html, text: row.text });
    await deps.db.update(systemEmails).set({ status: 'sent', sentAt: deps.clock.now(), lastError: null }).where(eq(systemEmails.id, id));
    return 'sent';
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const failed = row.attempts >= MAX_ATTEMPTS;
    const nextAttemptAt = new Date(deps.clock.now().getTime() + RETRY_BASE_MS * 2 ** (row.attempts - 1));
    await deps.db
      .update(systemEmails)
      .set({ status: failed ? 'failed' : 'pending', lastError: message.slice(0, 500), nextAttemptAt })
      .where(eq(systemEmails.id, id));
    return failed ? 'failed' : 'retry';
  }
}

async function dueSystemEmailIds(deps: Deps, limit = 50): Promise<string[]> {
  const rows = await deps.db
    .select({ id: systemEmails.id })
    .from(systemEmails)
    .where(and(eq(systemEmails.status, 'pending'), lte(systemEmails.nextAttemptAt, deps.clock.now())))
    .orderBy(asc(systemEmails.nextAttemptAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** A worker that died mid-send leaves a row in 'sending'; after a grace period it is due again. */
async function releaseStuckSystemEmails(deps: Deps, olderThanMs = 10 * 60_000): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - olderThanMs);
  const rows = await deps.db
    .update(systemEmails)
    .set({ status: 'pending' })
    .where(and(eq(systemEmails.status, 'sending'), lte(systemEmails.nextAttemptAt, cutoff)))
    .returning({ id: systemEmails.id });
  return rows.length;
}

export async function sweepSystemEmails(deps: Deps): Promise<number> {
  await releaseStuckSystemEmails(deps);
  const ids = await dueSystemEmailIds(deps);
  let sent = 0;
  for (const id of ids) if ((await deliverSystemEmail(deps, id)) === 'sent') sent += 1;
  return sent;
}
