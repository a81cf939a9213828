import { z } from 'zod';
import type { PlainRoute } from '../../trpc/plain-route';
import { BATCH_LIMIT, sendBatch } from '../../services/emails/accept/batch';
import { authorize } from '../../trpc/procedures';
import { batchItemsOf } from './batch-items';
import { batchEmailBody } from './wire';

const outcome = z.union([z.object({ id: z.uuid() }), z.object({ error: z.string(), code: z.string() })]);

/** `POST /emails/batch` takes a top-level JSON array, which trpc-to-openapi cannot: a plain route. */
export const emailBatchRoute: PlainRoute = {
  method: 'POST',
  path: '/emails/batch',
  bulkBody: true,
  access: 'sending',
  operation: {
    operationId: 'sendEmailBatch',
    tags: ['Emails'],
    summary: 'Send up to 100 emails; one outcome per item, in request order',
    requestBody: { required: true, content: { 'application/json': { schema: z.array(batchEmailBody).min(1).max(BATCH_LIMIT) } } },
    responses: {
      200: { description: 'One outcome per item: { id } or { error, code }', content: { 'application/json': { schema: z.object({ data: z.array(outcome) }).meta({ id: 'BatchResponse' }) } } },
    },
  },
  async handle({ ctx, deps, requestId, body, json }) {
    const principal = await authorize(ctx, { access: 'sending' });
    const items = batchItemsOf(body);
    const data = await sendBatch(deps, principal, items, (error) => deps.log.error({ requestId, err: error }, 'batch item failed'));
    await json(200, { data });
  },
};
