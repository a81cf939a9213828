import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { automationRuns, automationRunSteps } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import type { RunStatus, RunStepStatus, StepType } from '../../vocabulary/automations';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { ownAutomation } from './rows';

// Runs as Resend's `automations.runs.list/get` read them (docs/automations.md, "Reading runs"),
// with ours beside. A test key reads the test runs (started by its events), a live key the live ones.

export interface RunListItem {
  id: string;
  status: RunStatus;
  /** When its first step (the trigger) was taken; null until the engine takes it. */
  startedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  contactId: string | null;
  contactEmail: string;
  version: number;
  /** The step it is at (running) or ended at. */
  stepKey: string;
  /** Why it was cancelled: stopped, deleted, contact_deleted, contact_unsubscribed, contact_suppressed. */
  endedReason: string | null;
  /** What failed, or the refusal a step waits out before it is tried again. */
  error: string | null;
}

export interface RunStepView {
  key: string;
  type: StepType;
  status: RunStepStatus;
  output: Record<string, unknown> | null;
  error: Record<string, unknown> | null;
  startedAt: string;
  completedAt: string | null;
  createdAt: string;
}

export interface RunView extends RunListItem {
  steps: RunStepView[];
}

const runColumns = {
  id: automationRuns.id,
  status: automationRuns.status,
  createdAt: automationRuns.createdAt,
  completedAt: automationRuns.completedAt,
  contactId: automationRuns.contactId,
  contactEmail: automationRuns.contactEmail,
  version: automationRuns.version,
  stepKey: automationRuns.stepKey,
  endedReason: automationRuns.endedReason,
  error: automationRuns.error,
  // The trigger's step is the run's first (seq 0), found by the history's key.
  startedAt: sql<Date | string | null>`(select ${automationRunSteps.startedAt} from ${automationRunSteps} where ${automationRunSteps.runId} = ${automationRuns.id} and ${automationRunSteps.seq} = 0)`,
};

type RunRow = Pick<typeof automationRuns.$inferSelect, 'id' | 'status' | 'createdAt' | 'completedAt' | 'contactId' | 'contactEmail' | 'version' | 'stepKey' | 'endedReason' | 'error'> & {
  /** A subquery's timestamp: a Date or the driver's text. */
  startedAt: Date | string | null;
};

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

const listItemOf = (row: RunRow): RunListItem => ({
  id: row.id,
  status: row.status,
  startedAt: iso(row.startedAt),
  completedAt: iso(row.completedAt),
  createdAt: row.createdAt.toISOString(),
  contactId: row.contactId,
  contactEmail: row.contactEmail,
  version: row.version,
  stepKey: row.stepKey,
  endedReason: row.endedReason,
  error: row.error,
});

/** The runs of one automation the caller's mode sees: the organization's, of this automation, test or live as the key is. */
const visible = (principal: Principal, automationId: string) =>
  and(eq(automationRuns.automationId, automationId), eq(automationRuns.organizationId, principal.organizationId), eq(automationRuns.test, principal.mode === 'test'));

/** Newest first, in pages; `statuses` keeps only runs in one of them (Resend's filter). */
export async function listRuns(deps: Pick<Deps, 'db'>, principal: Principal, automationId: string, page: { limit: number; cursor?: string; statuses?: RunStatus[] }): Promise<Page<RunListItem>> {
  await ownAutomation(deps.db, principal, automationId);
  const result = await fetchPage(automationRuns.id, page, ({ where, orderBy, limit }) =>
    deps.db
      .select(runColumns)
      .from(automationRuns)
      .where(and(visible(principal, automationId), page.statuses?.length ? inArray(automationRuns.status, page.statuses) : undefined, where))
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: result.data.map(listItemOf), nextCursor: result.nextCursor };
}

/** One run with its steps in the order they were taken; another mode's run, or another automation's, is 404. */
export async function getRun(deps: Pick<Deps, 'db'>, principal: Principal, automationId: string, runId: string): Promise<RunView> {
  await ownAutomation(deps.db, principal, automationId);
  const [row] = await deps.db
    .select(runColumns)
    .from(automationRuns)
    .where(and(visible(principal, automationId), eq(automationRuns.id, runId)));
  if (!row) throw notFound('Automation run');
  const steps = await deps.db.select().from(automationRunSteps).where(eq(automationRunSteps.runId, runId)).orderBy(asc(automationRunSteps.seq));
  return {
    ...listItemOf(row),
    steps: steps.map((step) => ({
      key: step.key,
      type: step.type,
      status: step.status,
      output: step.output ?? null,
      error: step.error ?? null,
      startedAt: step.startedAt.toISOString(),
      completedAt: iso(step.completedAt),
      // A step's row is written when the step is taken: its creation is its start.
      createdAt: step.startedAt.toISOString(),
    })),
  };
}
