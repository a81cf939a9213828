import { z } from 'zod';
import { TOPIC_DEFAULT_SUBSCRIPTIONS } from '@/db/schema';
import { createTopic, deleteTopic, getTopic, listTopics, updateTopic } from '../services/topics/crud';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { nonBlank, idParam, isoDate, messageResponse } from './shared';

const topic = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    defaultSubscription: z.enum(TOPIC_DEFAULT_SUBSCRIPTIONS).describe('Where a contact who never chose stands (as in Resend): opt_in, in the topic until they leave it; opt_out, out of it until they join it'),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Topic' });

const name = nonBlank(100).describe('What a contact reads on the preference page; unique, whatever the case');
const description = z.string().trim().max(500, 'must be at most 500 characters').nullable().optional();

const tags = ['Topics'];
const path = { id: idParam };

export const topicsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/topics', operationId: 'createTopic', tags, summary: 'Create a topic contacts can join or leave on its own' }, successStatus: 201, liveWrite: true, errors: [409] })
    .input(
      z.strictObject({
        name,
        description,
        default_subscription: z.enum(TOPIC_DEFAULT_SUBSCRIPTIONS, { message: `must be one of ${TOPIC_DEFAULT_SUBSCRIPTIONS.join(', ')}` }),
      }),
    )
    .output(topic)
    .mutation(({ ctx, input }) => createTopic(ctx.deps, ctx.principal, { name: input.name, description: input.description, defaultSubscription: input.default_subscription })),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/topics', operationId: 'listTopics', tags, summary: 'List the topics, in the order they were made' } })
    .input(z.object({}))
    .output(z.object({ data: z.array(topic) }))
    .query(async ({ ctx }) => ({ data: await listTopics(ctx.deps, ctx.principal) })),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/topics/{id}', operationId: 'getTopic', tags, summary: 'Get a topic' } })
    .input(z.strictObject(path))
    .output(topic)
    .query(({ ctx, input }) => getTopic(ctx.deps, ctx.principal, input.id)),

  update: orgProcedure
    .meta({ openapi: { method: 'PATCH', path: '/topics/{id}', operationId: 'updateTopic', tags, summary: "Change a topic's name or description (its default subscription is fixed)" }, liveWrite: true, errors: [409] })
    .input(z.strictObject({ ...path, name: name.optional(), description }))
    .output(topic)
    .mutation(({ ctx, input }) => updateTopic(ctx.deps, ctx.principal, input.id, { name: input.name, description: input.description })),

  delete: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/topics/{id}', operationId: 'deleteTopic', tags, summary: 'Delete a topic (409 while a broadcast under it is not finished)' }, liveWrite: true, errors: [409] })
    .input(z.strictObject(path))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteTopic(ctx.deps, ctx.principal, input.id);
      return { message: 'Topic deleted' };
    }),
});
