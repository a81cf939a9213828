import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationRuns, automationRunSteps, automations, receivedEvents, type RunEvent } from '@/db/schema';
import type { ContactCreation, RunStatus, RunStepStatus, StepType } from '../../vocabulary/automations';
import type { Mode } from '../shared/principal';

/** One of the address's runs as the data-subject export shows it: which automation, how it went, and each step it took. */
export interface AddressRun {
  id: string;
  automationId: string;
  automationName: string;
  mode: Mode;
  status: RunStatus;
  /** The event that started it, with its payload. */
  event: RunEvent;
  /** When its trigger step was taken (null until the engine took it); when it ended. */
  startedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  steps: Array<{ key: string; type: StepType; status: RunStepStatus; startedAt: string; completedAt: string | null }>;
}

/** One event the organization sent for the address with `POST /events/send`. */
export interface AddressReceivedEvent {
  id: string;
  event: string;
  mode: Mode;
  payload: Record<string, unknown>;
  runsStarted: number;
  waitsEnded: number;
  /** Whether it created the contact (a trigger's `create_contact`): `created`, `skipped_test_mode`, or null. */
  contactCreation: ContactCreation | null;
  createdAt: string;
}

/**
 * The address's automation runs (both modes, those of deleted automations too, oldest first) and
 * the events sent for it (GDPR Art. 15; docs/privacy.md): found by the address the run and the
 * event keep, as the erasure finds them (`forget-address.ts`), so a run whose contact was deleted
 * is still listed. What retention took is gone from both.
 */
export async function automationDataOfAddress(db: Db, organizationId: string, address: string): Promise<{ runs: AddressRun[]; receivedEvents: AddressReceivedEvent[] }> {
  const [runRows, eventRows] = await Promise.all([
    db
      .select({ run: automationRuns, automationName: automations.name })
      .from(automationRuns)
      .innerJoin(automations, eq(automations.id, automationRuns.automationId))
      .where(and(eq(automationRuns.organizationId, organizationId), eq(automationRuns.contactEmail, address)))
      .orderBy(asc(automationRuns.createdAt), asc(automationRuns.id)),
    db
      .select()
      .from(receivedEvents)
      .where(and(eq(receivedEvents.organizationId, organizationId), eq(receivedEvents.email, address)))
      .orderBy(asc(receivedEvents.createdAt), asc(receivedEvents.id)),
  ]);
  const stepRows =
    runRows.length === 0
      ? []
      : await db
          .select()
          .from(automationRunSteps)
          .where(
            inArray(
              automationRunSteps.runId,
              runRows.map((row) => row.run.id),
            ),
          )
          .orderBy(asc(automationRunSteps.runId), asc(automationRunSteps.seq));
  const stepsOf = new Map<string, AddressRun['steps']>();
  for (const step of stepRows) {
    stepsOf.set(step.runId, [...(stepsOf.get(step.runId) ?? []), { key: step.key, type: step.type, status: step.status, startedAt: step.startedAt.toISOString(), completedAt: step.completedAt?.toISOString() ?? null }]);
  }
  return {
    runs: runRows.map(({ run, automationName }) => {
      const steps = stepsOf.get(run.id) ?? [];
      return {
        id: run.id,
        automationId: run.automationId,
        automationName,
        mode: run.test ? 'test' : 'live',
        status: run.status,
        event: run.event,
        startedAt: steps[0]?.startedAt ?? null,
        completedAt: run.completedAt?.toISOString() ?? null,
        createdAt: run.createdAt.toISOString(),
        steps,
      };
    }),
    receivedEvents: eventRows.map((row) => ({
      id: row.id,
      event: row.name,
      mode: row.test ? 'test' : 'live',
      payload: row.payload,
      runsStarted: row.runsStarted,
      waitsEnded: row.waitsEnded,
      contactCreation: row.contactCreation,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
