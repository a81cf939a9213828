import type { Db } from '@/db/client';
import type { Deps } from '../../../deps';
import { conflict } from '../../../errors';
import { noticeOverageEntered } from '../../plans/overage-notice';
import type { SendingLimits, SendKind } from '../../plans/sending-limits';
import type { Principal } from '../../shared/principal';
import { storeSystemEmail, type SystemMessage } from '../../system-mail/store';
import { emailSource } from '../source';
import { storeSingle } from './coalesced-store';
import type { SendContext } from './context';
import { evaluate, type AdmitItem, type Evaluation } from './evaluate';
import { findByIdempotencyKey } from './idempotency';
import { keyedStore } from './keyed-store';
import { storeEmails, type EmailDraft, type StoreResult } from './store';
import type { AdmitVia } from './vias';
import { storeWithinLimits, type Candidate } from './within-limits';

export type { AdmitItem } from './evaluate';

/** Customers' mail at the door: the emails of one request (one for a single send), in order. */
export interface EmailAdmission {
  via: Exclude<AdmitVia, 'system'>;
  principal: Principal;
  /** Which limits count it (docs/limits.md): the API's and the relay's are transactional, a broadcast's copies broadcast. */
  kind: SendKind;
  items: AdmitItem[];
  /**
   * The caller's transaction (a broadcast chunk, under its row lock): everything is stored in it,
   * and the wake-ups are answered for the caller to make once it has committed.
   */
  tx?: Db;
  /** What the checks read, when the way in read it already (it must, for drafted items). */
  context?: SendContext;
  /** Take the limits in order and admit nothing after the first refusal (a broadcast's contacts). */
  inOrder?: boolean;
}

/** The service's own messages at the door: no checks and no limits, stored in the caller's transaction. */
export interface SystemAdmission {
  via: 'system';
  tx: Db;
  message: SystemMessage;
}

/** Per item: stored (or replayed), refused (an AppError, or a fault of ours), or not reached (after an in-order stop). */
export type AdmitOutcome = { id: string } | { error: unknown } | null;

export interface Admitted {
  outcomes: AdmitOutcome[];
  evaluation: Evaluation;
  /** Stored emails to deliver, and whether webhook deliveries were queued: already woken unless stored in a caller's transaction. */
  wake: { emailIds: string[]; deliveriesQueued: boolean };
}

type SystemDeps = Pick<Deps, 'clock' | 'metrics'>;

/**
 * The one door every message comes in by: API single sends (a batch of one) and batches, the
 * SMTP relay, broadcast chunks and test copies, and the service's own mail. It owns the order
 * of the checks (evaluate.ts), the limits (within-limits.ts), which store (one statement; single
 * sends coalesced with their organization's others; a transaction for an Idempotency-Key or
 * attachments; the caller's transaction for a chunk), the idempotency race, the accepted
 * metrics and the wake-ups. System mail is stored in its own outbox behind the same door
 * (docs/emails.md, "One admit door").
 */
export function admit(deps: SystemDeps, admission: SystemAdmission): Promise<{ id: string }>;
export function admit(deps: Deps, admission: EmailAdmission): Promise<Admitted>;
export async function admit(deps: Deps | SystemDeps, admission: EmailAdmission | SystemAdmission): Promise<Admitted | { id: string }> {
  if (admission.via === 'system') {
    const id = await storeSystemEmail(admission.tx, deps, admission.message);
    deps.metrics.admitted('system', 1);
    return { id };
  }
  return admitEmails(deps as Deps, admission);
}

/** The overage notice of a send that crossed the quota, queued through this door as system mail. */
const queueSystemMail = (deps: SystemDeps) => async (tx: Db, message: SystemMessage) => (await admit(deps, { via: 'system', tx, message })).id;

interface Stored {
  refusals: unknown[];
  stored: Set<string>;
  deliveriesQueued: boolean;
  overageEntered: SendingLimits | null;
}

async function admitEmails(deps: Deps, admission: EmailAdmission): Promise<Admitted> {
  const { principal, items, tx } = admission;
  const on = tx ? { ...deps, db: tx } : deps;
  const evaluation = await evaluate(on, principal, items, { context: admission.context });
  const outcomes: AdmitOutcome[] = evaluation.items.map((item) => (item.refusal !== undefined ? { error: item.refusal } : item.replayOf ? { id: item.replayOf } : null));
  const limited: number[] = [];
  const outside: number[] = [];
  evaluation.items.forEach((item, index) => {
    if (item.candidate) (item.outsideLimits ? outside : limited).push(index);
  });
  const wake = { emailIds: [] as string[], deliveriesQueued: false };
  if (limited.length + outside.length === 0) return { outcomes, evaluation, wake };
  const { context } = evaluation;
  if (!context) throw new Error('drafted items come with the context their way in read');
  const candidateAt = (index: number): Candidate => evaluation.items[index]!.candidate!;

  let stored: Stored;
  try {
    stored = await store(deps, admission, evaluation, context, limited.map(candidateAt), outside.map(candidateAt), limited, outside);
  } catch (error) {
    // Nothing was stored (one statement, or one transaction): every item that got this far failed with it.
    if (tx) throw error;
    for (const index of [...limited, ...outside]) outcomes[index] = { error };
    return { outcomes, evaluation, wake };
  }

  const bySource = new Map<string, number>();
  for (const [k, index] of limited.entries()) {
    const { draft } = candidateAt(index);
    const refusal = stored.refusals[k];
    if (refusal) outcomes[index] = { error: refusal };
    else if (stored.stored.has(draft.row.id)) {
      outcomes[index] = { id: draft.row.id };
      wake.emailIds.push(draft.row.id);
      const source = emailSource({ submittedVia: draft.row.submittedVia ?? null, broadcastId: draft.row.broadcastId ?? null });
      bySource.set(source, (bySource.get(source) ?? 0) + 1);
    } else outcomes[index] = await lostRace(deps, principal, draft);
  }
  for (const index of outside) outcomes[index] = stored.stored.has(candidateAt(index).draft.row.id) ? { id: candidateAt(index).draft.row.id } : null;
  for (const [source, count] of bySource) deps.metrics.emailsAccepted({ source, mode: principal.mode }, count);
  if (stored.stored.size > 0) deps.metrics.admitted(admission.via, stored.stored.size);
  wake.deliveriesQueued = stored.deliveriesQueued;

  if (stored.overageEntered) {
    // The email is accepted already: a failed notice is logged, never turned into a refusal the client would retry.
    await noticeOverageEntered(deps, principal.organizationId, stored.overageEntered, queueSystemMail(deps)).catch((err: unknown) =>
      deps.log.error({ err, organizationId: principal.organizationId }, 'overage notice failed'),
    );
  }
  if (!tx) wakeAdmitted(deps, wake);
  return { outcomes, evaluation, wake };
}

/** The wake-ups of stored emails: the pipeline for them, and the webhook sweep when deliveries were queued. */
export function wakeAdmitted(deps: Pick<Deps, 'jobs'>, wake: Admitted['wake']): void {
  if (wake.deliveriesQueued) deps.jobs.wake('webhook-delivery', []);
  if (wake.emailIds.length === 1) deps.jobs.wake('email-dispatch', wake.emailIds[0]!);
  else if (wake.emailIds.length > 1) deps.jobs.wake('email-dispatch', wake.emailIds);
}

/**
 * Which store takes the candidates: the caller's transaction; a transaction of its own for an
 * Idempotency-Key or attachments (a single send only); a lone single send coalesced with its
 * organization's others in flight; else one statement for all of them.
 */
async function store(
  deps: Deps,
  admission: EmailAdmission,
  evaluation: Evaluation,
  context: SendContext,
  candidates: Candidate[],
  alongside: Candidate[],
  limited: number[],
  outside: number[],
): Promise<Stored> {
  const { principal, tx } = admission;
  const input = limited.length === 1 ? evaluation.items[limited[0]!]!.input : undefined;
  const single = !tx && admission.items.length === 1 && input !== undefined;
  if (single && !input.idempotencyKey && input.attachments.length === 0) {
    const outcome = await storeSingle(deps, principal, context, candidates[0]!);
    const id = candidates[0]!.draft.row.id;
    return { refusals: [outcome.refusal], stored: new Set(outcome.stored ? [id] : []), deliveriesQueued: outcome.deliveriesQueued, overageEntered: outcome.overageEntered };
  }
  const db = tx ?? deps.db;
  const statement =
    single && input
      ? keyedStore(deps, principal, candidates[0]!.draft, input.attachments)
      : (drafts: EmailDraft[], reservation: Parameters<typeof storeEmails>[2]): Promise<StoreResult> => storeEmails(db, drafts, reservation);
  const stopAt = (refusals: unknown[]) => (admission.inOrder ? (limited[refusals.findIndex((refusal) => refusal !== null)] ?? Infinity) : Infinity);
  const within = await storeWithinLimits(tx ? { ...deps, db: tx } : deps, principal, context, admission.kind, candidates, statement, {
    inOrder: admission.inOrder,
    alongside: alongside.length === 0 ? undefined : (refusals) => alongside.filter((_, k) => outside[k]! < stopAt(refusals)).map((candidate) => candidate.draft),
  });
  return { refusals: within.refusals, stored: within.result.stored, deliveriesQueued: within.result.deliveriesQueued, overageEntered: within.overageEntered };
}

/** Not stored and not refused: a concurrent request took its Idempotency-Key, and its email is the answer. */
async function lostRace(deps: Deps, principal: Principal, draft: EmailDraft): Promise<AdmitOutcome> {
  const key = draft.row.idempotencyKey;
  if (!key) return { error: new Error(`email ${draft.row.id} has no idempotency key, yet it was not stored`) };
  try {
    const winner = await findByIdempotencyKey(deps, principal, key);
    return winner ? { id: winner } : { error: conflict('A request with this Idempotency-Key is in progress; retry') };
  } catch (error) {
    return { error };
  }
}
