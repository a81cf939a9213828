import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationRuns, contacts, type StoredStep } from '@/db/schema';
import type { Deps } from '../../../deps';
import { AppError } from '../../../errors';
import { wakeAdmitted, type Admitted } from '../../emails/accept/admit';
import { deleteContactIn, updateContactIn } from '../../contacts/profile-write';
import { joinSegment } from '../../contacts/segments';
import { organizationPrincipal } from '../../shared/principal';
import { suppressedAmong } from '../../suppressions/suppressions';
import { durationSeconds } from '../duration';
import type { AddToSegmentConfig, ContactUpdateConfig, DelayConfig, SendEmailConfig, WaitForEventConfig } from '../step-configs';
import { delayEnd } from './delay';
import { contactOf, engagementOf, judge, type ConditionNode, type RunFacts } from './evaluate';
import { resolveVariables, sendStepEmail } from './send';
import { endRun, moveOn, recordStep, tryAgainAt, waitAt, type RunRow } from './transitions';
import { versionGraph } from './version-graph';

/** A step refused for a while (a sending limit) is tried again this much later, at most RETRY_MOST times before the run fails. */
export const RETRY_AFTER_MS = 60 * 60_000;
export const RETRY_MOST = 72;

/** What one step of a run did: went on (take another step now), waits until a time, or stopped (ended, not due, not ours). */
export type StepTaken = { went: 'on'; wake?: Admitted['wake'] } | { went: 'wait'; until: Date } | { went: 'stop' };

/**
 * One step of a claimed run, in one transaction: the run's row is held, checked due and still this
 * worker's, the contact read (gone, unsubscribed or suppressed: the run is cancelled here), and the
 * step at its cursor done, its work (an email stored, a contact changed) and the cursor's move
 * committed together. A crash before the commit leaves the run where it was, to take the same
 * step again; after it, the step is never taken twice.
 */
export async function takeStep(deps: Deps, runId: string): Promise<StepTaken> {
  let wake: Admitted['wake'] | undefined;
  const taken = await deps.db.transaction(async (tx): Promise<StepTaken> => {
    const [run] = await tx.select().from(automationRuns).where(eq(automationRuns.id, runId)).for('update');
    if (!run || run.status !== 'running' || run.claimedBy !== deps.claims.id) return { went: 'stop' };
    const now = deps.clock.now();
    if (run.dueAt && run.dueAt > now) return { went: 'wait', until: run.dueAt };

    const [contactRow] = run.contactId ? await tx.select().from(contacts).where(eq(contacts.id, run.contactId)).for('update') : [];
    if (!contactRow) return ended(tx, deps, run, 'contact_deleted', now);
    if (contactRow.unsubscribed) return ended(tx, deps, run, 'contact_unsubscribed', now);
    if ((await suppressedAmong(tx, deps.encryptionKey, run.organizationId, [contactRow.email])).size > 0) return ended(tx, deps, run, 'contact_suppressed', now);

    const graph = await versionGraph(tx, run.automationId, run.version);
    const step = graph.step(run.stepKey)!;
    const event = run.receivedEvent ?? run.event;
    const facts: RunFacts = { contact: contactOf(contactRow), payload: event.payload, email: { opened: false, clicked: false } };
    const on = async (type: Parameters<typeof graph.next>[1], status: 'completed' | 'skipped' = 'completed', output?: Record<string, unknown>, extra: Partial<RunRow> = {}) => {
      await recordStep(tx, run, step, status, now, { output, startedAt: run.stepState === 'waiting' ? undefined : now });
      await moveOn(tx, deps, run, graph.next(step.key, type), now, extra);
      return { went: 'on' as const };
    };

    switch (step.type) {
      case 'trigger':
        return on('default', 'completed', { event: run.event.name });
      case 'delay': {
        if (run.stepState === 'waiting') return on('default', 'completed', { waitedUntil: run.dueAt?.toISOString() });
        const until = delayEnd(step.config as DelayConfig, now, facts.contact);
        await recordStep(tx, run, step, 'waiting', now, { output: { until: until.toISOString() } });
        await waitAt(tx, run, until, null, now);
        return { went: 'wait', until };
      }
      case 'wait_for_event': {
        const config = step.config as WaitForEventConfig;
        if (run.stepState === 'waiting') {
          return run.receivedEvent
            ? on('event_received', 'completed', { received: run.receivedEvent.name })
            : on('timeout', 'completed', { timedOut: true });
        }
        const until = new Date(now.getTime() + durationSeconds(config.timeout)! * 1_000);
        await recordStep(tx, run, step, 'waiting', now, { output: { event: config.event_name, until: until.toISOString() } });
        await waitAt(tx, run, until, config.event_name, now);
        return { went: 'wait', until };
      }
      case 'condition': {
        facts.email = await engagementOf(tx, run.lastEmailId);
        const met = judge(step.config as ConditionNode, facts);
        return on(met ? 'condition_met' : 'condition_not_met', 'completed', { met });
      }
      case 'contact_update': {
        // In a savepoint: a value its property's type refuses fails the run, not the transaction.
        const changed = await tx.transaction((point) => updateContactIn(point, deps, actingFor(run), contactRow, changesOf(step.config as ContactUpdateConfig, facts))).catch(refusedAs);
        if (changed instanceof AppError) return failed(tx, deps, run, step, changed, now);
        return on('default');
      }
      case 'add_to_segment': {
        const joined = await tx.transaction((point) => joinSegment(point, deps, actingFor(run), contactRow, (step.config as AddToSegmentConfig).segment_id)).catch(refusedAs);
        if (joined instanceof AppError) return failed(tx, deps, run, step, joined, now);
        return on('default', 'completed', { joined });
      }
      case 'contact_delete':
        await deleteContactIn(tx, deps, actingFor(run), contactRow);
        await recordStep(tx, run, step, 'completed', now);
        await moveOn(tx, deps, run, null, now, { contactId: null });
        return { went: 'on' };
      case 'send_email': {
        const sent = await sendStepEmail(tx, deps, { ...run, stepKey: step.key }, step.config as SendEmailConfig, facts);
        if ('sent' in sent) {
          wake = sent.sent.wake;
          return on('default', 'completed', { emailId: sent.sent.emailId }, { lastEmailId: sent.sent.emailId, error: null });
        }
        if ('skipped' in sent) return on('default', 'skipped', { reason: sent.skipped });
        if ('retry' in sent && run.attempts + 1 < RETRY_MOST) {
          const at = new Date(now.getTime() + RETRY_AFTER_MS);
          await tryAgainAt(tx, run, at, sent.retry, now);
          return { went: 'wait', until: at };
        }
        return failed(tx, deps, run, step, 'retry' in sent ? sent.retry : sent.failed, now);
      }
    }
  });
  if (wake) wakeAdmitted(deps, wake);
  return taken;
}

/** The organization acting through its automation: what the contact's ledger and the audit log name. */
const actingFor = (run: RunRow) => ({ ...organizationPrincipal(run.organizationId, 'free'), mode: run.test ? ('test' as const) : ('live' as const) });

const refusedAs = (error: unknown) => {
  if (error instanceof AppError) return error;
  throw error;
};

function changesOf(config: ContactUpdateConfig, facts: RunFacts) {
  const values = resolveVariables(config as Record<string, unknown>, facts);
  const properties = config.properties ? resolveVariables(config.properties, facts) : undefined;
  return {
    ...(config.first_name !== undefined ? { firstName: values.first_name as string | null } : {}),
    ...(config.last_name !== undefined ? { lastName: values.last_name as string | null } : {}),
    ...(config.unsubscribed !== undefined ? { unsubscribed: values.unsubscribed === true || values.unsubscribed === 'true' } : {}),
    ...(properties ? { properties } : {}),
  };
}

async function ended(tx: Db, deps: Deps, run: RunRow, reason: 'contact_deleted' | 'contact_unsubscribed' | 'contact_suppressed', now: Date): Promise<StepTaken> {
  await endRun(tx, deps, run, { cancelled: reason }, now);
  return { went: 'stop' };
}

async function failed(tx: Db, deps: Deps, run: RunRow, step: StoredStep, error: AppError, now: Date): Promise<StepTaken> {
  await recordStep(tx, run, step, 'failed', now, { error, startedAt: run.stepState === 'waiting' ? undefined : now });
  await endRun(tx, deps, run, { failed: error }, now);
  return { went: 'stop' };
}
