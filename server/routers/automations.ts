import { z } from 'zod';
import {
  AUTOMATION_LIMITS,
  createAutomation,
  deleteAutomation,
  duplicateAutomation,
  getAutomation,
  listAutomations,
  startTestRun,
  stopAutomation,
  updateAutomation,
} from '../services/automations';
import { forbidden } from '../errors';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { AUTOMATION_STATUSES, CONNECTION_TYPES, STEP_TYPES } from '../vocabulary/automations';
import { stepsDocument } from './automations-doc';
import { nonBlank, idParam, isoDate, messageResponse, pageQuery } from './shared';

// Resend's automations (docs/automations.md). The edge checks each step's and connection's outline;
// the service reads each config by its type, so a refusal can name the step's key.

const stepKey = z
  .string()
  .min(1, 'must not be empty')
  .max(AUTOMATION_LIMITS.keyChars, `must be at most ${AUTOMATION_LIMITS.keyChars} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, 'must hold letters, digits and . _ - only')
  .describe('Unique within the automation; connections name steps by it');

const step = z.strictObject({
  key: stepKey,
  type: z.enum(STEP_TYPES),
  config: z.record(z.string(), z.unknown()).describe('Its shape depends on type: docs/automations.md'),
});

const connection = z.strictObject({
  from: stepKey.describe('The key of the step the run comes from'),
  to: stepKey.describe('The key of the step it goes on to'),
  type: z.enum(CONNECTION_TYPES).optional().describe('default when absent; a condition leads on by condition_met and condition_not_met, a wait_for_event by event_received and timeout'),
});

const steps = z
  .array(step)
  .min(1, 'must hold the trigger step at least')
  .max(AUTOMATION_LIMITS.steps, `must hold at most ${AUTOMATION_LIMITS.steps} steps`)
  .meta({ override: ({ jsonSchema }) => Object.assign(jsonSchema, stepsDocument) });
const connections = z.array(connection).max(AUTOMATION_LIMITS.connections, `must hold at most ${AUTOMATION_LIMITS.connections} connections`);
const name = nonBlank(AUTOMATION_LIMITS.nameChars);
const status = z.enum(AUTOMATION_STATUSES);

const listItem = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status,
    version: z.number().int().describe('The version new runs start on; every change of steps or connections adds one'),
    triggerEventName: z.string().describe("The trigger step's event_name"),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'AutomationListItem' });

const automation = listItem
  .extend({
    steps: z.array(z.object({ key: z.string(), type: z.enum(STEP_TYPES), config: z.record(z.string(), z.unknown()) })).describe('As written (snake_case inside config), so they can be sent back unchanged'),
    connections: z.array(z.object({ from: z.string(), to: z.string(), type: z.enum(CONNECTION_TYPES) })),
  })
  .meta({ id: 'Automation' });

const tags = ['Automations'];
const byId = { id: idParam };

export const automationsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/automations', operationId: 'createAutomation', tags, summary: 'Create an automation: a trigger and the steps it leads to' }, successStatus: 201, liveWrite: true, errors: [409] })
    .input(z.strictObject({ name, status: status.optional().describe('disabled when absent'), steps, connections }))
    .output(automation)
    .mutation(({ ctx, input }) => createAutomation(ctx.deps, ctx.principal, input)),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/automations', operationId: 'listAutomations', tags, summary: 'List automations, newest first' } })
    .input(z.strictObject({ ...pageQuery({ max: 100, default: 20 }), status: status.optional() }))
    .output(z.object({ data: z.array(listItem), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listAutomations(ctx.deps, ctx.principal, input)),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/automations/{id}', operationId: 'getAutomation', tags, summary: 'Get an automation with its steps and connections' } })
    .input(z.strictObject(byId))
    .output(automation)
    .query(({ ctx, input }) => getAutomation(ctx.deps, ctx.principal, input.id)),

  update: orgProcedure
    .meta({
      openapi: { method: 'PATCH', path: '/automations/{id}', operationId: 'updateAutomation', tags, summary: 'Change an automation; new steps and connections become its next version' },
      liveWrite: true,
    })
    .input(
      z.strictObject({
        ...byId,
        name: name.optional(),
        status: status.optional(),
        steps: steps.optional().describe('With connections: the two replace the definition as a whole'),
        connections: connections.optional(),
      }),
    )
    .output(automation)
    .mutation(({ ctx, input }) => updateAutomation(ctx.deps, ctx.principal, input.id, { name: input.name, status: input.status, steps: input.steps, connections: input.connections })),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/automations/{id}', operationId: 'deleteAutomation', tags, summary: 'Delete an automation and end its runs' }, liveWrite: true })
    .input(z.strictObject(byId))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteAutomation(ctx.deps, ctx.principal, input.id);
      return { message: 'Automation deleted' };
    }),

  duplicate: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/automations/{id}/duplicate', operationId: 'duplicateAutomation', tags, summary: 'A disabled copy of an automation, named "… (copy)"' }, successStatus: 201, liveWrite: true, errors: [409] })
    .input(z.strictObject(byId))
    .output(automation)
    .mutation(({ ctx, input }) => duplicateAutomation(ctx.deps, ctx.principal, input.id)),

  stop: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/automations/{id}/stop', operationId: 'stopAutomation', tags, summary: 'Disable an automation and end its runs under way' }, liveWrite: true })
    .input(z.strictObject(byId))
    .output(automation)
    .mutation(({ ctx, input }) => stopAutomation(ctx.deps, ctx.principal, input.id)),

  // The dashboard's "Test run" (docs/automations.md, "Dashboard"): no REST path, an API key starts test runs with a test key's event.
  testRun: orgProcedure
    .input(z.strictObject({ ...byId, contact: nonBlank(320).describe("The contact's id or address") }))
    .output(z.object({ runId: z.uuid(), automationId: z.uuid(), version: z.number().int(), contactId: z.uuid(), contactEmail: z.string() }))
    .mutation(({ ctx, input }) => {
      if (ctx.channel !== 'dashboard') throw forbidden('A test run is started in the dashboard');
      return startTestRun(ctx.deps, ctx.principal, input.id, input.contact);
    }),
});
