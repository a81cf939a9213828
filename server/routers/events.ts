import { z } from 'zod';
import { listEvents } from '../services/events/log';
import { EVENT_TYPES } from '../vocabulary/event-types';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { isoDate } from './shared';

const loggedEvent = z
  .object({
    id: z.uuid().describe('The event id: the `webhook-id` header its webhook deliveries carry'),
    type: z.enum(EVENT_TYPES),
    createdAt: isoDate,
    data: z.record(z.string(), z.unknown()).describe('As webhooks carry it; `mode` is "live" or "test"'),
  })
  .meta({ id: 'LoggedEvent' });

// Every type once, with room for spaces after the commas.
const TYPE_LIST_CHARS = 1_000;

const typeList = z
  .string()
  .max(TYPE_LIST_CHARS, `must be at most ${TYPE_LIST_CHARS} characters`)
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    const types = value.split(',').map((type) => type.trim());
    const unknown = types.filter((type) => !(EVENT_TYPES as string[]).includes(type));
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `${unknown.map((type) => `"${type}"`).join(', ')} is not an event type` });
      return z.NEVER;
    }
    return types as typeof EVENT_TYPES;
  })
  .describe('Only these types, comma-separated (e.g. email.bounced,email.complained)');

export const eventsRouter = router({
  list: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/events',
        operationId: 'listEvents',
        tags: ['Webhooks'],
        summary: 'The event log, oldest first from a cursor: catch up on what webhooks delivered (or could not)',
        description:
          'Pass the last event id you processed as `after` and keep the `nextCursor` of each page. Events appear here 5 seconds after they happen and stay for the plan\'s log retention.',
      },
    })
    .input(
      z.object({
        after: z.uuid({ message: 'must be the id of an event (the nextCursor of a previous page)' }).max(36).optional(),
        limit: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be between 1 and 1000').max(1000, 'must be between 1 and 1000').default(100),
        type: typeList,
      }),
    )
    .output(z.object({ data: z.array(loggedEvent), nextCursor: z.uuid().nullable().describe('The id to pass as `after` next (the last one of this page)'), hasMore: z.boolean() }))
    .query(({ ctx, input }) => listEvents(ctx.deps, ctx.principal, { after: input.after, limit: input.limit, types: input.type })),
});
