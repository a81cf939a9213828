import { z } from 'zod';
import { automationFigures, getRun, listRuns } from '../services/automations';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { RUN_STATUSES, RUN_STEP_STATUSES, STEP_TYPES, type RunStatus } from '../vocabulary/automations';
import { idParam, isoDate, pageQuery } from './shared';

// Resend's `automations.runs.list/get` (docs/automations.md, "Reading runs"): its fields, and ours beside.

const statusList = z
  .string()
  .max(100, 'must be at most 100 characters')
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    const statuses = value.split(',').map((status) => status.trim());
    const unknown = statuses.filter((status) => !(RUN_STATUSES as readonly string[]).includes(status));
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `${unknown.map((status) => `"${status}"`).join(', ')} is not a run status (${RUN_STATUSES.join(', ')})` });
      return z.NEVER;
    }
    return statuses as RunStatus[];
  })
  .describe(`Only runs in these statuses, comma-separated (${RUN_STATUSES.join(', ')})`);

const runItem = z
  .object({
    id: z.uuid(),
    status: z.enum(RUN_STATUSES),
    startedAt: isoDate.nullable().describe('When its trigger step was taken; null until then'),
    completedAt: isoDate.nullable(),
    createdAt: isoDate,
    contactId: z.uuid().nullable().describe('Null once the contact is deleted'),
    contactEmail: z.string(),
    version: z.number().int().describe('The version of the automation it runs'),
    stepKey: z.string().describe('The step it is at, or ended at'),
    endedReason: z.string().nullable().describe('Why it was cancelled: stopped, deleted, contact_deleted, contact_unsubscribed, contact_suppressed'),
    error: z.string().nullable().describe('What failed, or the refusal a step waits out before it is tried again'),
  })
  .meta({ id: 'AutomationRunListItem' });

const runStep = z.object({
  key: z.string(),
  type: z.enum(STEP_TYPES),
  status: z.enum(RUN_STEP_STATUSES),
  output: z.record(z.string(), z.unknown()).nullable().describe('What the step did: the email sent, the branch taken, the wait'),
  error: z.record(z.string(), z.unknown()).nullable().describe('{ code, message } of a failed step'),
  startedAt: isoDate,
  completedAt: isoDate.nullable().describe('Null while it waits'),
  createdAt: isoDate,
});

const run = runItem.extend({ steps: z.array(runStep).describe('In the order they were taken') }).meta({ id: 'AutomationRun' });

const count = z.number().int();
const figures = z
  .object({
    runs: z.object({ running: count, completed: count, failed: count, cancelled: count }),
    atStep: z.array(z.object({ stepKey: z.string(), runs: count })).describe('Running runs by the step they are at, most first'),
    emails: z.object({
      sent: count.describe('Emails its send steps stored'),
      byStatus: z.record(z.string(), count).describe('By the email\'s status now (delivered, bounced, …); expired once past retention'),
      opened: count.describe('Opened by a person (or clicked)'),
      clicked: count.describe('Clicked by a person'),
    }),
  })
  .meta({ id: 'AutomationFigures' });

const tags = ['Automations'];

export const automationRunsRouter = router({
  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/automations/{id}/runs', operationId: 'listAutomationRuns', tags, summary: "An automation's runs, newest first: a test key reads the test runs, a live key the live ones" } })
    .input(z.strictObject({ id: idParam, ...pageQuery({ max: 100, default: 20 }), status: statusList }))
    .output(z.object({ data: z.array(runItem), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listRuns(ctx.deps, ctx.principal, input.id, { limit: input.limit, cursor: input.cursor, statuses: input.status })),

  figures: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/automations/{id}/figures', operationId: 'getAutomationFigures', tags, summary: "An automation at a glance: its runs by status, where the running ones wait, what its emails became" } })
    .input(z.strictObject({ id: idParam }))
    .output(figures)
    .query(({ ctx, input }) => automationFigures(ctx.deps, ctx.principal, input.id)),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/automations/{id}/runs/{runId}', operationId: 'getAutomationRun', tags, summary: 'One run of an automation, with each step it took' } })
    .input(z.strictObject({ id: idParam, runId: idParam }))
    .output(run)
    .query(({ ctx, input }) => getRun(ctx.deps, ctx.principal, input.id, input.runId)),
});
