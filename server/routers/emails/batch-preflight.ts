import { z } from 'zod';
import type { PlainRoute } from '../../trpc/plain-route';
import { BATCH_LIMIT } from '../../services/emails/accept/batch';
import { preflightBatch } from '../../services/emails/preflight/batch';
import { authorize } from '../../trpc/procedures';
import { batchItemsOf } from './batch-items';
import { preflightVerdict } from './preflight-schema';
import { batchEmailBody } from './wire';

/** The dry run of `POST /emails/batch`, a plain route for the same reason (a top-level array body). */
export const emailBatchPreflightRoute: PlainRoute = {
  method: 'POST',
  path: '/emails/batch/preflight',
  bulkBody: true,
  // Not a send: the spec keeps sending_access keys to the four send paths.
  operation: {
    operationId: 'preflightEmailBatch',
    tags: ['Emails'],
    summary: 'Dry run of POST /emails/batch: per item, in request order, what the batch would answer, storing and sending nothing',
    description: 'Runs the checks of POST /emails/batch (one item\'s refusal is that item\'s verdict; the limits are allotted in order). Counts against the rate limit only.',
    requestBody: { required: true, content: { 'application/json': { schema: z.array(batchEmailBody).min(1).max(BATCH_LIMIT) } } },
    responses: {
      200: { description: 'One verdict per item', content: { 'application/json': { schema: z.object({ data: z.array(preflightVerdict) }).meta({ id: 'BatchPreflightResponse' }) } } },
    },
  },
  async handle({ ctx, deps, requestId, body, json }) {
    const principal = await authorize(ctx, {});
    const data = await preflightBatch(deps, principal, batchItemsOf(body), (error) => deps.log.error({ requestId, err: error }, 'batch preflight item failed'));
    await json(200, { data });
  },
};
