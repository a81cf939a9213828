import { z } from 'zod';
import { TOPIC_DEFAULT_SUBSCRIPTIONS } from '@/db/schema';
import { getContactTopics, updateContactTopics } from '../services/topics/contact-topics';
import { TOPIC_LIMIT } from '../services/topics/crud';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { contactParam } from './contact-param';

// A contact's topics (Resend's `/contacts/{id}/topics`): every topic of the organization with
// where the contact stands, and its choices changed. docs/contacts.md, "Topics".

const subscription = z.enum(TOPIC_DEFAULT_SUBSCRIPTIONS, { message: `must be one of ${TOPIC_DEFAULT_SUBSCRIPTIONS.join(', ')}` });

const contactTopic = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    subscription: z.enum(TOPIC_DEFAULT_SUBSCRIPTIONS).describe("opt_in: the contact gets the topic's broadcasts; opt_out: it does not (its own choice, else the topic's default)"),
  })
  .meta({ id: 'ContactTopic' });

const answer = z.object({ data: z.array(contactTopic) }).meta({ id: 'ContactTopicList' });

const tags = ['Contacts'];
const path = { idOrEmail: contactParam };

export const contactTopicsRouter = router({
  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contacts/{idOrEmail}/topics', operationId: 'listContactTopics', tags, summary: "Every topic, with the contact's subscription to it" } })
    .input(z.strictObject(path))
    .output(answer)
    .query(async ({ ctx, input }) => ({ data: await getContactTopics(ctx.deps, ctx.principal, input.idOrEmail) })),

  update: orgProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/contacts/{idOrEmail}/topics',
        operationId: 'updateContactTopics',
        tags,
        summary: "Set the contact's subscription to the topics named (the others stay as they are)",
        description: 'The body may also be the `topics` array itself, as Resend\'s SDK sends it: `[{ "id": "…", "subscription": "opt_out" }]`.',
      },
      liveWrite: true,
      arrayBodyField: 'topics',
    })
    .input(
      z.strictObject({
        ...path,
        topics: z
          .array(z.strictObject({ id: z.uuid({ message: 'must be the id of one of your topics' }), subscription }))
          .min(1, 'give at least one topic')
          .max(TOPIC_LIMIT, `at most ${TOPIC_LIMIT} topics (an organization has no more)`),
      }),
    )
    .output(answer)
    .mutation(async ({ ctx, input }) => ({ data: await updateContactTopics(ctx.deps, ctx.principal, input.idOrEmail, input.topics) })),
});
