import { emailEvents } from '@/db/schema';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { newId } from '../../ids';
import type { EmailEventType } from '../shared/event-types';
import { logEvents } from '../shared/events';
import { countsOfEvents, tallyEvents } from '../broadcasts/tally';

/** What an event of an email tells a webhook receiver about it, so no callback is needed. */
interface EmailEventSubject {
  id: string;
  organizationId: string;
  mode?: string;
  from?: string;
  to?: string[];
  subject?: string;
  tags?: Array<{ name: string; value: string }>;
  /** A broadcast's email: its events move the broadcast's counts. */
  broadcastId?: string | null;
}

export type EmailEventInput = { type: EmailEventType; recipient?: string | null; data?: Record<string, unknown> };

/** The rows one list of events adds: to the email's history, and to the organization's event log. */
export function emailEventRows(at: Date, email: EmailEventSubject, list: EmailEventInput[]) {
  const history = list.map((event) => ({
    id: newId(),
    emailId: email.id,
    organizationId: email.organizationId,
    type: event.type,
    recipient: event.recipient ?? null,
    data: event.data ?? {},
    createdAt: at,
  }));
  // Undefined fields vanish when the data is stored as JSON.
  const about = { emailId: email.id, mode: email.mode, from: email.from, to: email.to, subject: email.subject, tags: email.tags };
  const log = list.map((event) => ({
    id: newId(),
    organizationId: email.organizationId,
    type: event.type,
    data: { ...about, ...(event.recipient ? { recipient: event.recipient } : {}), ...event.data } as Record<string, unknown>,
    createdAt: at,
  }));
  return { history, log };
}

/**
 * Appends to an email's history and, in the same transaction, to the organization's event log
 * that webhooks deliver from: one call, so the two can never disagree.
 */
export async function recordEmailEvents(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, email: EmailEventSubject, list: EmailEventInput[]): Promise<void> {
  if (list.length === 0) return;
  const { history, log } = emailEventRows(deps.clock.now(), email, list);
  await tx.insert(emailEvents).values(history);
  await logEvents(tx, deps, log);
  await tallyEvents(tx, email.broadcastId ?? null, countsOfEvents(list.map((event) => event.type)));
}
