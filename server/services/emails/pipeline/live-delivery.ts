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

/** Deferred recipients are retried for this long, then failed (docs/delivery.md, "Retries"). */
export const RETRY_WINDOW_MS = 72 * 60 * MINUTE_MS;
// Roughly doubling, capped at 4 hours: about 20 attempts within the window.
const RETRY_DELAYS_MS = [MINUTE_MS, 5 * MINUTE_MS, 15 * MINUTE_MS, 30 * MINUTE_MS, 60 * MINUTE_MS, 2 * 60 * MINUTE_MS, 4 * 60 * MINUTE_MS];

/** A recipient's back-off after its `attempt`-th try (its own attempts: a hold by traffic shaping is not one). */
const retryDelayMs = (attempt: number) => RETRY_DELAYS_MS[Math.min(Math.max(attempt, 1) - 1, RETRY_DELAYS_MS.length - 1)]!;

/** Builds, signs and hands the message to the receiving servers; records each recipient's outcome. */
export async function deliverLive(deps: Deps, row: ClaimedEmail): Promise<DispatchResult> {
  const now = deps.clock.now();
  const states: RecipientState[] = row.recipients.map((state) => ({ ...state }));
  // Pending ones, and deferred ones whose own back-off is over; the others wait for their time.
  const isDue = (state: RecipientState) => state.status === 'pending' || (state.status === 'deferred' && (!state.nextAttemptAt || Date.parse(state.nextAttemptAt) <= now.getTime()));
  const open = states.filter(isDue).map((state) => ({ state, index: state.index }));
  /** When each recipient left to try is due again: those not due now keep their time. */
  const dueTimes: number[] = states.filter((state) => state.status === 'deferred' && !isDue(state)).map((state) => Date.parse(state.nextAttemptAt!));
  let sent: Awaited<ReturnType<typeof send>>;
  try {
    sent = await send(deps, row, open.map(({ index }) => index), now);
  } catch (error) {
    throw new NotSentError(error);
  }
  if (!sent) {
    const reason = 'the sending domain was deleted';
    // Every recipient left to try, due now or not: nothing of this email can be sent any more.
    const left = states.filter((state) => state.status === 'pending' || state.status === 'deferred');
    for (const state of left) Object.assign(state, { status: 'failed', response: reason });
    return finishDispatch(deps, row, states, left.map((state) => ({ type: 'email.failed', recipient: state.address, data: { reason } })), null);
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
    if (outcome.held) {
      // Not tried (its provider is paused or throttled for this sending domain): no attempt, no
      // event, its last reply kept; past the window it fails like any deferral.
      if (expired) {
        state.status = 'failed';
        state.response ??= outcome.response;
        const bounce = classifyResponse({ text: state.response, kind: 'failed' });
        events.push({ type: 'email.failed', recipient: state.address, data: { response: state.response, reason: 'not accepted within 72 hours', bounce } });
      } else {
        state.status = 'deferred';
        state.response ??= outcome.response;
        state.nextAttemptAt = outcome.held.retryAt.toISOString();
        dueTimes.push(outcome.held.retryAt.getTime());
      }
      continue;
    }
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
      const due = now.getTime() + retryDelayMs(state.attempts);
      state.nextAttemptAt = new Date(due).toISOString();
      dueTimes.push(due);
      const bounce = classifyResponse({ smtpCode: outcome.smtpCode, text: outcome.response, kind: 'delayed' });
      events.push({ type: 'email.delivery_delayed', recipient: state.address, data: { ...data, attempt: state.attempts, bounce } });
    }
  }
  if (firstAttempt && reachedServer) events.unshift({ type: 'email.sent', data: { messageId: message.messageId } });
  const next = dueTimes.length > 0 ? new Date(Math.min(...dueTimes)) : null;
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
      shaping: deps.shaping,
    },
  );
  return { message, messageDate, outcomes };
}
