import { z } from 'zod';
import { EVENT_TYPES } from '../vocabulary/event-types';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, rotateWebhookSecret, updateWebhook, WEBHOOK_URL_NAMES, webhookSecret } from '../services/webhooks/crud';
import { getDelivery, listDeliveries } from '../services/webhooks/deliveries';
import { pingWebhook, replayDelivery } from '../services/webhooks/manual';
import { ATTEMPT_TRIGGERS, DELIVERY_STATUSES } from '../vocabulary/webhook-statuses';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { idParam, isoDate, messageResponse, pageQuery, underOneName } from './shared';

const deliveryStatus = z.enum(DELIVERY_STATUSES);

const webhook = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()).describe('Event types, or ["*"] for all'),
    createdAt: isoDate,
  })
  .meta({ id: 'Webhook' });

const health = z
  .object({
    attempts24h: z.number().int().describe('Attempts over the last 24 hours'),
    succeeded24h: z.number().int().describe('Of those, answered 2xx'),
    lastFailureAt: isoDate.nullable(),
    lastFailure: z.string().nullable().describe('What the last failed attempt got, in words'),
  })
  .meta({ id: 'WebhookHealth' });

const delivery = z
  .object({
    id: z.uuid(),
    eventId: z.uuid().describe('The event delivered: the `webhook-id` header of every attempt'),
    eventType: z.string(),
    status: deliveryStatus.describe('pending: an attempt is scheduled; succeeded: answered 2xx; failed: every attempt failed'),
    attempts: z.number().int(),
    responseStatus: z.number().int().nullable().describe('The HTTP status of the last attempt (null: no answer)'),
    lastError: z.string().nullable(),
    createdAt: isoDate,
    nextAttemptAt: isoDate.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

const attempt = z
  .object({
    id: z.uuid(),
    trigger: z.enum(ATTEMPT_TRIGGERS),
    succeeded: z.boolean(),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().describe('The first 2,048 characters of the answer'),
    attemptedAt: isoDate,
  })
  .meta({ id: 'WebhookAttempt' });

const manualAttempt = z
  .object({ deliveryId: z.uuid(), status: deliveryStatus, attempt })
  .meta({ id: 'WebhookManualAttempt' });

const url = z.string().max(4096, 'must be at most 4096 characters').describe('A public http(s) URL; private, loopback and internal addresses are refused');
const events = z
  .array(z.string().max(100))
  .min(1, 'name at least one event type, or "*" for all')
  .max(EVENT_TYPES.length + 1)
  .describe('Event types from the catalogue (see EventType), or ["*"] for all');

const mode = z.enum(['live', 'test']);
const secret = z
  .object({
    mode: mode.describe("The mode of the events `secret` verifies: the key's (a test key gets the test-mode secret only)"),
    secret: z.string().describe('The signing secret (whsec_…), for any Standard Webhooks library'),
    testSecret: z
      .string()
      .optional()
      .describe('To a live key: the test-mode secret too, which also signs test-mode events (the endpoint receives both modes)'),
  })
  .meta({ id: 'WebhookSecret' });
const rotatedSecret = z
  .object({ mode: mode.describe('Which secret was replaced'), secret: z.string().describe('The new signing secret (whsec_…)') })
  .meta({ id: 'RotatedWebhookSecret' });
const tags = ['Webhooks'];
const byId = z.strictObject({ id: idParam });

const rotateInput = z.strictObject({ id: idParam, mode: mode.optional().describe("Which secret to replace; default: the key's mode") });

/** Resend's name for `url` (docs/resend.md): either may be given, not both. */
const endpoint = url.describe("Resend's name for `url`: give one of the two");

export const webhooksRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/webhooks', operationId: 'createWebhook', tags, summary: 'Register an endpoint for events' }, successStatus: 201, liveWrite: true })
    .input(z.strictObject({ url: url.optional(), endpoint: endpoint.optional(), events }).superRefine(underOneName(WEBHOOK_URL_NAMES)))
    .output(
      webhook
        .extend({
          secret: z.string().describe('The live signing secret: it signs every event'),
          testSecret: z.string().describe('The test-mode signing secret: test-mode events are signed with it too; a test key reads only this one'),
        })
        .meta({ id: 'CreatedWebhook' }),
    )
    .mutation(({ ctx, input }) => createWebhook(ctx.deps, ctx.principal, { url: (input.url ?? input.endpoint)!, events: input.events })),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/webhooks', operationId: 'listWebhooks', tags, summary: "List endpoints with each one's health over the last 24 hours" } })
    .input(z.object({}))
    .output(z.object({ data: z.array(webhook.extend({ health })) }))
    .query(async ({ ctx }) => ({ data: await listWebhooks(ctx.deps, ctx.principal) })),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/webhooks/{id}', operationId: 'getWebhook', tags, summary: 'Get an endpoint and its 50 most recent deliveries, newest first' } })
    .input(byId)
    .output(webhook.extend({ deliveries: z.array(delivery) }).meta({ id: 'WebhookDetail' }))
    .query(({ ctx, input }) => getWebhook(ctx.deps, ctx.principal, input.id)),

  update: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/webhooks/{id}', operationId: 'updateWebhook', tags, summary: 'Change the URL (checked again) and/or the events' }, liveWrite: true })
    .input(z.strictObject({ id: idParam, url: url.optional(), endpoint: endpoint.optional(), events: events.optional() }))
    .output(webhook)
    .mutation(({ ctx, input }) => updateWebhook(ctx.deps, ctx.principal, input.id, { url: input.url, endpoint: input.endpoint, events: input.events })),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/webhooks/{id}', operationId: 'deleteWebhook', tags, summary: 'Delete an endpoint; its pending deliveries are dropped' }, liveWrite: true })
    .input(byId)
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteWebhook(ctx.deps, ctx.principal, input.id);
      return { message: 'Webhook deleted' };
    }),

  secret: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/webhooks/{id}/secret', operationId: 'getWebhookSecret', tags, summary: 'Get the signing secret' } })
    .input(byId)
    .output(secret)
    .query(({ ctx, input }) => webhookSecret(ctx.deps, ctx.principal, input.id)),

  rotateSecret: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/rotate-secret',
        operationId: 'rotateWebhookSecret',
        tags,
        summary: "Replace the signing secret of one mode (the key's unless `mode` says); the next attempt, retries included, is signed with the new one",
        description: 'A test key rotates the test-mode secret (test-mode state) and gets 403 FORBIDDEN asking for `live`.',
      },
    })
    .input(rotateInput)
    .output(rotatedSecret)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.deps, ctx.principal, input.id, input.mode)),

  rotateSigningSecret: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/signing-secret/rotate',
        operationId: 'rotateWebhookSigningSecret',
        tags,
        summary: 'POST /webhooks/{id}/rotate-secret under the path Resend uses',
      },
    })
    .input(rotateInput)
    .output(rotatedSecret)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.deps, ctx.principal, input.id, input.mode)),

  test: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/webhooks/{id}/test', operationId: 'testWebhook', tags, summary: 'Send a signed webhook.test event now and answer with what the endpoint said' },
      liveWrite: true,
    })
    .input(byId)
    .output(manualAttempt)
    .mutation(({ ctx, input }) => pingWebhook(ctx.deps, ctx.principal, input.id)),

  deliveries: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/webhooks/{id}/deliveries', operationId: 'listWebhookDeliveries', tags, summary: "An endpoint's deliveries, newest first, in pages" } })
    .input(z.strictObject({ id: idParam, ...pageQuery({ max: 100, default: 50 }), status: deliveryStatus.optional() }))
    .output(z.object({ data: z.array(delivery), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listDeliveries(ctx.deps, ctx.principal, input.id, { limit: input.limit, cursor: input.cursor, status: input.status })),

  delivery: orgProcedure
    .meta({
      openapi: { method: 'GET', path: '/webhooks/{id}/deliveries/{deliveryId}', operationId: 'getWebhookDelivery', tags, summary: 'One delivery: the body it sends and every attempt' },
    })
    .input(z.strictObject({ id: idParam, deliveryId: idParam }))
    .output(delivery.extend({ payload: z.string().describe('The JSON body each attempt sent'), attemptsMade: z.array(attempt) }).meta({ id: 'WebhookDeliveryDetail' }))
    .query(({ ctx, input }) => getDelivery(ctx.deps, ctx.principal, input.id, input.deliveryId)),

  replay: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/deliveries/{deliveryId}/replay',
        operationId: 'replayWebhookDelivery',
        tags,
        summary: 'Send a delivery again now (same webhook-id, fresh signature) and answer with the outcome',
      },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject({ id: idParam, deliveryId: idParam }))
    .output(manualAttempt)
    .mutation(({ ctx, input }) => replayDelivery(ctx.deps, ctx.principal, input.id, input.deliveryId)),
});
