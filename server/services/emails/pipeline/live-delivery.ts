import { eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { deliver } from '../../../mail/delivery';
import type { Deps } from '../../../deps';
import { composeMessage } from '../message/compose';
import { finishDispatch, type EmailEventInput } from './finish';
import type { RecipientState } from '../recipients';
import { MINUTE_MS } from '../../shared/time';
import { classifyResponse } from '../../bounces/classify';
import { NotSentError, type ClaimedEmail, type DispatchResult } from './types';

/** Deferred recipients are retried for this long, then failed. */
const RETRY_WINDOW_MS = 72 * 60 * MINUTE_MS;
const RETRY_DELAYS_MS = [MINUTE_MS, 5 * MINUTE_MS, 15 * MINUTE_MS, 30 * MINUTE_MS, 60 * MINUTE_MS, 2 * 60 * MINUTE_MS, 4 * 60 * MINUTE_MS];

const retryDelayMs = (attempt: number) => RETRY_DELAYS_MS[Math.min(attempt - 1, RETRY_DELAYS_MS.length - 1)]!;

/** Builds, signs and hands the message to the receiving servers; records each recipient's outcome. */
export async function deliverLive(deps: Deps, row: ClaimedEmail): Promise<DispatchResult> {
  const now = deps.clock.now();
  const states: RecipientState[] = row.recipients.map((state) => ({ ...state }));
  const open = states.filter((state) => state.status === 'pending' || state.status === 'deferred').map((state) => ({ state, index: state.index }));
  let sent: Awaited<ReturnType<typeof send>>;
  try {
    sent = await send(deps, row, open.map(({ index }) => index), now);
  } catch (error) {
    throw new NotSentError(error);
  }
  if (!sent) {
    const reason = 'the sending domain was deleted';
    for (const { state } of open) Object.assign(state, { status: 'failed', response: reason });
    return finishDispatch(deps, row, states, open.map(({ state }) => ({ type: 'email.failed', recipient: state.address, data: { reason } })), null);
  }
  const { message, messageDate, outcomes } = sent;
  const events: EmailEventInput[] = [];
  const firstAttempt = !row.sentAt;
  let reachedServer = false;
  const expired = now.getTime() - (row.scheduledAt ?? row.createdAt).getTime() >= RETRY_WINDOW_MS;
  for (const outcome of outcomes) {
    const target = open.find(({ state }) => state.address.toLowerCase() === outcome.recipient.toLowerCase());
    if (!target) continue;
    const state = target.state;
    state.attempts += 1;
    state.response = outcome.response;
    const data = {
      response: outcome.response,
      smtpCode: outcome.smtpCode ?? null,
      host: outcome.host ?? null,
      // Tries of this step that came to nothing before this answer (a dropped connection, a failed TLS handshake, another MX host).
      ...(outcome.earlierTries?.length ? { earlierTries: outcome.earlierTries } : {}),
    };
    if (outcome.outcome === 'delivered') {
      reachedServer = true;
      state.status = 'delivered';
      events.push({ type: 'email.delivered', recipient: state.address, data });
    } else if (outcome.outcome === 'bounced') {
      reachedServer = true;
      state.status = 'bounced';
      const bounce = classifyResponse({ smtpCode: outcome.smtpCode, text: outcome.response, kind: 'bounced' });
      events.push({ type: 'email.bounced', recipient: state.address, data: { ...data, source: 'smtp', bounce } });
    } else if (expired) {
      state.status = 'failed';
      const bounce = classifyResponse({ smtpCode: outcome.smtpCode, text: outcome.response, kind: 'failed' });
      events.push({ type: 'email.failed', recipient: state.address, data: { ...data, reason: 'not accepted within 72 hours', bounce } });
    } else {
      state.status = 'deferred';
      const bounce = classifyResponse({ smtpCode: outcome.smtpCode, text: outcome.response, kind: 'delayed' });
      events.push({ type: 'email.delivery_delayed', recipient: state.address, data: { ...data, attempt: state.attempts, bounce } });
    }
  }
  if (firstAttempt && reachedServer) events.unshift({ type: 'email.sent', data: { messageId: message.messageId } });
  const deferred = states.some((state) => state.status === 'deferred');
  const next = deferred ? new Date(now.getTime() + retryDelayMs(row.attempts + 1)) : null;
  return finishDispatch(deps, row, states, events, next, {
    messageId: message.messageId,
    messageDate,
    ...(firstAttempt && reachedServer ? { sentAt: now } : {}),
  });
}

/**
 * Builds the message and hands it to the receiving servers for these recipients (by envelope
 * index); null when the sending domain is gone. Throws only for what happened before anything was
 * sent: refusals and network failures are outcomes.
 */
async function send(deps: Deps, row: ClaimedEmail, recipients: number[], now: Date) {
  const messageDate = row.messageDate ?? now;
  const composed = await composeMessage(deps, { row, signingKeyId: row.signingKeyId, hasAttachments: row.hasAttachments, date: messageDate });
  if (!composed) return null;
  const { message, trackedLinks } = composed;
  if (trackedLinks && trackedLinks.join('\n') !== row.trackedLinks.join('\n')) {
    await deps.db.update(emails).set({ trackedLinks }).where(eq(emails.id, row.id));
  }
  const wanted = new Set(recipients);
  const outcomes = await deliver(
    { ...message, recipients: message.recipients.filter((recipient) => wanted.has(recipient.index)) },
    {
      relayUrl: deps.config.smtpRelayUrl,
      dnsServers: deps.config.dnsServers,
      mxPort: deps.config.smtpMxPort,
      heloName: deps.config.mailHost,
      allowPrivateCidrs: deps.config.smtpMxAllowPrivateCidrs,
      timeouts: deps.config.smtpTimeouts,
    },
  );
  return { message, messageDate, outcomes };
}
