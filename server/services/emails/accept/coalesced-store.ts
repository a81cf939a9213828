import type { Db } from '@/db/client';
import type { Deps } from '../../../deps';
import type { AppError } from '../../../errors';
import type { SendingLimits } from '../../plans/sending-limits';
import type { Reservation } from '../../plans/sending-limits';
import { groupCommitter, keyedGroupCommitter } from '../../shared/group-commit';
import type { Principal } from '../../shared/principal';
import type { SendContext } from './context';
import { storeEmails, storeReserved, type EmailDraft, type ReservedStore, type StoreResult } from './store';
import { storeWithinLimits, type Candidate } from './within-limits';

interface Waiting {
  deps: Deps;
  principal: Principal;
  context: SendContext;
  candidate: Candidate;
}

export interface SingleOutcome {
  refusal: AppError | null;
  stored: boolean;
  deliveriesQueued: boolean;
  /** Given to one send of the group only: the owner is told once. */
  overageEntered: SendingLimits | null;
}

/** As many as one store statement takes in a batch. */
const MAX_TOGETHER = 50;

// What is left of a store's cost once one organization's sends share a statement is the statement
// itself (most of a lone send's Postgres time is starting a plan of a dozen steps, whatever the
// row count), and sends of many organizations arrive together. So the organizations' reserved
// stores in flight go together too, each still counted against its own reservation.
const storeAcrossOrganizations = groupCommitter(async (db: Db, stores: ReservedStore[]): Promise<StoreResult[]> => {
  const results = new Array<StoreResult>(stores.length);
  // One reservation per organization and statement: a second of the same one waits for the next.
  let pending = stores.map((store, index) => ({ store, index }));
  while (pending.length > 0) {
    const seen = new Set<string>();
    const now = pending.filter(({ store }) => !seen.has(store.reservation.organizationId) && seen.add(store.reservation.organizationId));
    pending = pending.filter((entry) => !now.includes(entry));
    const answers = await storeReserved(
      db,
      now.map(({ store }) => store),
    );
    now.forEach(({ index }, k) => (results[index] = answers[k]!));
  }
  return results;
});

const storeStatement = (db: Db) => (drafts: EmailDraft[], reservation: Reservation | null) =>
  reservation ? storeAcrossOrganizations(db, { drafts, reservation }) : storeEmails(db, drafts, null);

// Concurrent single sends of one organization would queue on its counter row's lock, one commit
// after another. Those arriving while one is being stored go together in the next statement
// instead: one reservation, one round trip, one commit, each email still allotted and refused on
// its own, in arrival order. A lone send is stored at once, as before.
const storeTogether = keyedGroupCommitter(async (_db: Db, waiting: Waiting[]): Promise<SingleOutcome[]> => {
  const [{ deps, principal, context }] = waiting as [Waiting, ...Waiting[]];
  const { refusals, result, overageEntered } = await storeWithinLimits(
    deps,
    principal,
    context,
    'transactional',
    waiting.map((w) => w.candidate),
    storeStatement(deps.db),
  );
  return waiting.map((w, index) => ({
    refusal: refusals[index] ?? null,
    stored: result.stored.has(w.candidate.draft.row.id),
    deliveriesQueued: result.deliveriesQueued,
    overageEntered: index === 0 ? overageEntered : null,
  }));
}, MAX_TOGETHER);

/**
 * Stores one email with no idempotency key and no attachments (those need a transaction of their
 * own) within the sending limits, together with the organization's other sends in flight. Only
 * the admit door (admit.ts) calls it.
 */
export function storeSingle(deps: Deps, principal: Principal, context: SendContext, candidate: Candidate): Promise<SingleOutcome> {
  return storeTogether(deps.db, `${principal.organizationId}:${principal.mode}`, { deps, principal, context, candidate });
}
