import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationRuns, contacts, type StoredStep } from '@/db/schema';
import type { Deps } from '../../../deps';
import type { AppError } from '../../../errors';
import type { RunStepStatus } from '../../../vocabulary/automations';
import { wakeAdmitted, type Admitted } from '../../emails/accept/admit';
import { suppressedAmong } from '../../suppressions/suppressions';
import type { DelayConfig, SendEmailConfig } from '../step-configs';
import { delayEnd } from './delay';
import { contactOf, type RunFacts } from './evaluate';
import { logRunEvents } from './events';
import { sendStepEmails } from './send';
import { RETRY_AFTER_MS, RETRY_MOST } from './step';
import { endRun, stepRow, writeStepRows, type RunRow } from './transitions';
import { versionGraph, type VersionGraph } from './version-graph';

// The steps a crowd of runs takes alike (a trigger, a delay's start and end, an email) in one
// transaction for many runs, instead of one per run and step: a hundred thousand contacts entering
// at once reach their first wait, and later their email, in set-based statements. The rules are
// the single path's (step.ts): the run held and checked due and this worker's, the contact read
// (gone, unsubscribed, suppressed: cancelled), each step's history row keyed by run and step
// count, an email and the cursor's move committed together. A step that changes the contact or
// branches is left to step.ts.

/** What the crowd's turn left of each run: waiting (until), ended, or ready at a step only the single path takes. */
export type TogetherOutcome = { went: 'wait'; until: Date } | { went: 'stop' } | { went: 'ready' };

type HistoryRow = ReturnType<typeof stepRow>;

interface Cursor {
  status: 'running' | 'completed' | 'failed';
  stepKey: string;
  stepState: 'ready' | 'waiting';
  stepCount: number;
  dueAt: Date | null;
  attempts: number;
  /** The run's error: undefined keeps it, null clears it (an email sent). */
  error?: string | null;
  lastEmailId?: string;
}

interface InPlay {
  run: RunRow;
  graph: VersionGraph;
  facts: RunFacts;
  cursor: Cursor;
  moved: boolean;
  /** A delay begun in this turn: it never ends in the same one. */
  waitBegun?: boolean;
}

/** Steps one run takes in a turn here; rounds of (common steps, then the crowd's emails). */
const MOST_STEPS = 8;
const ROUNDS = 3;

/**
 * Takes the steps a crowd of claimed runs can take alike, in one transaction, and answers where
 * each run got to. Runs not due, ended, or no longer this worker's answer `stop` (as step.ts would).
 */
export async function takeStepsTogether(deps: Deps, runIds: string[]): Promise<Map<string, TogetherOutcome>> {
  const outcomes = new Map<string, TogetherOutcome>(runIds.map((id) => [id, { went: 'stop' }]));
  if (runIds.length === 0) return outcomes;
  const wakes: Array<Admitted['wake']> = [];
  await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const runs = await tx
      .select()
      .from(automationRuns)
      .where(and(inArray(automationRuns.id, runIds), eq(automationRuns.status, 'running'), eq(automationRuns.claimedBy, deps.claims.id), lte(automationRuns.dueAt, now)))
      .orderBy(automationRuns.id)
      .for('update');
    const contactIds = runs.flatMap((run) => (run.contactId ? [run.contactId] : []));
    const contactRows = contactIds.length > 0 ? await tx.select().from(contacts).where(inArray(contacts.id, contactIds)).orderBy(contacts.id).for('share') : [];
    const contactById = new Map(contactRows.map((row) => [row.id, row]));
    const suppressed = await suppressedOf(tx, deps, runs, contactById);

    const play: InPlay[] = [];
    for (const run of runs) {
      const contact = run.contactId ? contactById.get(run.contactId) : undefined;
      const cancelled = !contact ? 'contact_deleted' : contact.unsubscribed ? 'contact_unsubscribed' : suppressed.has(`${run.organizationId}\u0000${contact.email}`) ? 'contact_suppressed' : null;
      if (cancelled) {
        await endRun(tx, deps, run, { cancelled }, now);
        continue;
      }
      const graph = await versionGraph(tx, run.automationId, run.version);
      const event = run.receivedEvent ?? run.event;
      const facts: RunFacts = { contact: contactOf(contact!), payload: event.payload, email: { opened: false, clicked: false } };
      play.push({ run, graph, facts, cursor: { status: 'running', stepKey: run.stepKey, stepState: run.stepState, stepCount: run.stepCount, dueAt: run.dueAt, attempts: run.attempts }, moved: false });
    }

    const history: HistoryRow[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const one of play) commonSteps(one, history, now);
      const atSend = play.filter(({ cursor, graph }) => cursor.status === 'running' && cursor.stepState === 'ready' && !(cursor.dueAt! > now) && graph.step(cursor.stepKey)!.type === 'send_email');
      if (atSend.length === 0) break;
      wakes.push(...(await sendTogether(tx, deps, atSend, history, now)));
    }

    const moved = play.filter((one) => one.moved);
    await writeStepRows(tx, history);
    await moveRuns(tx, moved, now);
    await logEndings(tx, deps, moved);
    for (const { run, cursor } of play) {
      const ended = cursor.status !== 'running';
      outcomes.set(run.id, ended ? { went: 'stop' } : cursor.dueAt! > now ? { went: 'wait', until: cursor.dueAt! } : { went: 'ready' });
    }
  });
  for (const wake of wakes) wakeAdmitted(deps, wake);
  return outcomes;
}

const historyRow = (one: InPlay, step: StoredStep, status: RunStepStatus, now: Date, detail: { output?: Record<string, unknown>; error?: AppError } = {}): HistoryRow =>
  stepRow(one.run.id, one.cursor.stepCount, step, status, now, detail);

/** On to the step a connection leads to (due now), or, with none, completed. */
function onTo(one: InPlay, next: string | null, now: Date): void {
  const { cursor } = one;
  one.moved = true;
  if (next) Object.assign(cursor, { stepKey: next, stepState: 'ready', stepCount: cursor.stepCount + 1, dueAt: now, attempts: 0 });
  else Object.assign(cursor, { status: 'completed', stepState: 'ready', dueAt: null });
}

/** The trigger, a delay's start, the end of the delay the run was waiting at: as far as they go. */
function commonSteps(one: InPlay, history: HistoryRow[], now: Date): void {
  const { cursor, graph, run } = one;
  for (let steps = 0; steps < MOST_STEPS && cursor.status === 'running' && !(cursor.dueAt! > now); steps += 1) {
    const step = graph.step(cursor.stepKey)!;
    if (cursor.stepState === 'waiting') {
      // The end of a delay completes the row its start wrote; any other wait's end (an event, a timeout) is the single path's.
      if (step.type !== 'delay' || one.waitBegun) return;
      history.push(historyRow(one, step, 'completed', now, { output: { waitedUntil: run.dueAt?.toISOString() } }));
      onTo(one, graph.next(step.key, 'default'), now);
    } else if (step.type === 'trigger') {
      history.push(historyRow(one, step, 'completed', now, { output: { event: run.event.name } }));
      onTo(one, graph.next(step.key, 'default'), now);
    } else if (step.type === 'delay') {
      const until = delayEnd(step.config as DelayConfig, now, one.facts.contact);
      history.push(historyRow(one, step, 'waiting', now, { output: { until: until.toISOString() } }));
      Object.assign(cursor, { stepState: 'waiting', dueAt: until });
      Object.assign(one, { moved: true, waitBegun: true });
    } else return;
  }
}

/** The runs at a `send_email` step, by the step of one version (and mode): each group's emails admitted together. */
async function sendTogether(tx: Db, deps: Deps, atSend: InPlay[], history: HistoryRow[], now: Date): Promise<Array<Admitted['wake']>> {
  const groups = new Map<string, InPlay[]>();
  for (const one of atSend) {
    const key = `${one.run.automationId}\u0000${one.run.version}\u0000${one.cursor.stepKey}\u0000${one.run.test}`;
    groups.set(key, [...(groups.get(key) ?? []), one]);
  }
  const wakes: Array<Admitted['wake']> = [];
  for (const group of groups.values()) {
    const step = group[0]!.graph.step(group[0]!.cursor.stepKey)!;
    const sent = await sendStepEmails(
      tx,
      deps,
      group.map(({ run, cursor, facts }) => ({ run: { id: run.id, organizationId: run.organizationId, automationId: run.automationId, stepKey: cursor.stepKey, test: run.test }, facts })),
      step.config as SendEmailConfig,
    );
    group.forEach((one, k) => {
      const outcome = sent[k]!;
      one.moved = true;
      if ('sent' in outcome) {
        wakes.push(outcome.sent.wake);
        history.push(historyRow(one, step, 'completed', now, { output: { emailId: outcome.sent.emailId } }));
        Object.assign(one.cursor, { lastEmailId: outcome.sent.emailId, error: null });
        onTo(one, one.graph.next(step.key, 'default'), now);
      } else if ('skipped' in outcome) {
        history.push(historyRow(one, step, 'skipped', now, { output: { reason: outcome.skipped } }));
        onTo(one, one.graph.next(step.key, 'default'), now);
      } else if ('retry' in outcome && one.cursor.attempts + 1 < RETRY_MOST) {
        Object.assign(one.cursor, { dueAt: new Date(now.getTime() + RETRY_AFTER_MS), attempts: one.cursor.attempts + 1, error: outcome.retry.message });
      } else {
        const error = 'retry' in outcome ? outcome.retry : (outcome as { failed: AppError }).failed;
        history.push(historyRow(one, step, 'failed', now, { error }));
        Object.assign(one.cursor, { status: 'failed', dueAt: null, error: error.message });
      }
    });
  }
  return wakes;
}

/** The (organization, address) pairs on a suppression list, one read per organization. */
async function suppressedOf(tx: Db, deps: Deps, runs: RunRow[], contactById: Map<string, typeof contacts.$inferSelect>): Promise<Set<string>> {
  const byOrganization = new Map<string, string[]>();
  for (const run of runs) {
    const contact = run.contactId ? contactById.get(run.contactId) : undefined;
    if (contact) byOrganization.set(run.organizationId, [...(byOrganization.get(run.organizationId) ?? []), contact.email]);
  }
  const pairs = new Set<string>();
  for (const [organizationId, addresses] of byOrganization) {
    for (const address of await suppressedAmong(tx, deps.encryptionKey, organizationId, addresses)) pairs.add(`${organizationId}\u0000${address}`);
  }
  return pairs;
}

/** Each run's new cursor in one statement (an UPDATE from a VALUES list): moved on, waiting, tried again later, completed or failed. */
async function moveRuns(tx: Db, moved: InPlay[], now: Date): Promise<void> {
  if (moved.length === 0) return;
  const at = now.toISOString();
  const values = sql.join(
    moved.map(({ run, cursor }) => {
      const ended = cursor.status !== 'running';
      return sql`(${run.id}::uuid, ${cursor.status}::text, ${cursor.stepKey}::text, ${cursor.stepState}::text, ${cursor.stepCount}::int, ${ended ? null : cursor.dueAt!.toISOString()}::timestamptz,
        ${ended ? at : null}::timestamptz, ${cursor.attempts}::int, ${cursor.error === undefined}::boolean, ${cursor.error ?? null}::text, ${cursor.lastEmailId ?? null}::uuid)`;
    }),
    sql`, `,
  );
  await tx.execute(sql`
    update automation_runs as r set status = v.status, step_key = v.step_key, step_state = v.step_state, step_count = v.step_count, due_at = v.due_at,
      waiting_for = null, received_event = case when v.step_state = 'waiting' then null else r.received_event end, attempts = v.attempts,
      error = case when v.keep_error then r.error else v.error end, last_email_id = coalesce(v.last_email_id, r.last_email_id),
      completed_at = v.completed_at, updated_at = ${at}::timestamptz
    from (values ${values}) as v(id, status, step_key, step_state, step_count, due_at, completed_at, attempts, keep_error, error, last_email_id)
    where r.id = v.id`);
}

/** The `automation.run_completed` and `run_failed` events of the runs that ended here. */
async function logEndings(tx: Db, deps: Deps, moved: InPlay[]): Promise<void> {
  const subject = ({ run, cursor }: InPlay) => ({ ...run, lastEmailId: cursor.lastEmailId ?? run.lastEmailId });
  const completed = moved.filter(({ cursor }) => cursor.status === 'completed').map(subject);
  if (completed.length > 0) await logRunEvents(tx, deps, 'completed', completed);
  for (const one of moved.filter(({ cursor }) => cursor.status === 'failed')) await logRunEvents(tx, deps, 'failed', [subject(one)], { error: one.cursor.error });
}
