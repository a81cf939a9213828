import { z } from 'zod';
import { createAudience, deleteAudience, getAudience, listAudiences } from '../services/audiences/crud';
import { listContacts } from '../services/contacts/read';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { audience, contactListQuery, contactPage, name } from './audiences';
import { idParam, messageResponse } from './shared';

// Resend's name for an audience (docs/contacts.md): the same resource, the same rows and rules;
// a segment made here is an audience in every other route, and the reverse.

const tags = ['Segments'];
const path = { id: idParam };

export const segmentsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/segments', operationId: 'createSegment', tags, summary: 'Create a segment (an audience, under Resend’s name)' }, successStatus: 201, liveWrite: true })
    .input(z.strictObject({ name: name.min(1, 'must not be empty') }))
    .output(audience)
    .mutation(({ ctx, input }) => createAudience(ctx.deps, ctx.principal, input)),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/segments', operationId: 'listSegments', tags, summary: 'List segments (the audiences), newest first, with their contact counts' } })
    .input(z.object({}))
    .output(z.object({ data: z.array(audience) }))
    .query(async ({ ctx }) => ({ data: await listAudiences(ctx.deps, ctx.principal) })),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/segments/{id}', operationId: 'getSegment', tags, summary: 'Get a segment' } })
    .input(z.strictObject(path))
    .output(audience)
    .query(({ ctx, input }) => getAudience(ctx.deps, ctx.principal, input.id)),

  delete: orgProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/segments/{id}', operationId: 'deleteSegment', tags, summary: 'Delete a segment and its contacts, as DELETE /audiences/{id} (409 while a broadcast to it is scheduled or sending)' },
      liveWrite: true,
      errors: [409],
    })
    .input(z.strictObject(path))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteAudience(ctx.deps, ctx.principal, input.id);
      return { message: 'Segment deleted' };
    }),

  listContacts: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/segments/{id}/contacts', operationId: 'listSegmentContacts', tags, summary: "A segment's contacts, newest first" } })
    .input(z.strictObject({ ...path, ...contactListQuery }))
    .output(contactPage)
    .query(({ ctx, input }) => listContacts(ctx.deps, ctx.principal, input.id, { limit: input.limit, cursor: input.cursor, search: input.search, subscribed: input.subscribed })),
});
