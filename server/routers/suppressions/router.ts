import { z } from 'zod';
import { decodePathParam } from '../../trpc/path-params';
import { isUuid } from '../../ids';
import { addSuppression, addSuppressions, getSuppression, listSuppressions, removeSuppression, suppressionAddress, type SuppressionTarget } from '../../services/suppressions/crud';
import { SUPPRESSION_LIMITS } from '../../services/suppressions/limits';
import { CALLER_REASONS, SUPPRESSION_REASONS } from '../../vocabulary/suppression-reasons';
import { AddressError } from '../../services/shared/addresses';
import { router } from '../../trpc/init';
import { orgProcedure } from '../../trpc/procedures';
import { isoDate, messageResponse, pageQuery } from '../shared';

export const suppression = z
  .object({
    id: z.uuid(),
    email: z.string().describe('Normalised: lowercase, the domain in ASCII (an IDN domain as punycode)'),
    reason: z.enum(SUPPRESSION_REASONS).describe('bounce and complaint: recorded from a delivery report; unsubscribe and manual: given by you, or a one-click unsubscribe'),
    createdAt: isoDate,
    emailId: z.uuid().nullable().describe('The email whose bounce or complaint put the address here; null otherwise'),
  })
  .meta({ id: 'Suppression' });

/** An address as the list takes it: the send path's parser, no display name; the 400 names the field. */
const address = z
  .string()
  .superRefine((value, ctx) => {
    try {
      suppressionAddress(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof AddressError ? error.message : 'is not a valid email address' });
    }
  })
  .describe('The address alone (no display name); stored lowercase with an IDN domain as punycode');

const callerReason = z
  .enum(CALLER_REASONS, { message: 'must be manual or unsubscribe (bounce and complaint entries are recorded by the service from delivery reports)' })
  .default('manual')
  .describe('manual (default) or unsubscribe; bounce and complaint are recorded by the service itself');

/**
 * The `{id}` of `GET` and `DELETE /suppressions/{id}`: an entry id, or an address in the same segment
 * (URL-encoded: `/suppressions/ada%40example.com`). Anything else is a 400 naming `id`.
 */
const entryParam = z
  .string()
  .meta({
    description: 'An entry id (UUID), or the suppressed address URL-encoded (ada%40example.com)',
    anyOf: [{ format: 'uuid' }, { format: 'idn-email' }],
  })
  .transform((value, ctx): SuppressionTarget => {
    const text = decodePathParam(value);
    if (text === null) {
      ctx.addIssue({ code: 'custom', message: 'is not a valid URL-encoded value' });
      return z.NEVER;
    }
    if (isUuid(text)) return { id: text.toLowerCase() };
    try {
      suppressionAddress(text);
      return { email: text };
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an entry id (UUID) or an email address' });
      return z.NEVER;
    }
  });

const tags = ['Suppressions'];

export const suppressionsRouter = router({
  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/suppressions', operationId: 'listSuppressions', tags, summary: 'List suppressed addresses, newest first, with search and a reason filter' } })
    .input(
      z.object({
        ...pageQuery({ max: SUPPRESSION_LIMITS.pageMax, default: SUPPRESSION_LIMITS.pageDefault }),
        search: z
          .string()
          .max(SUPPRESSION_LIMITS.searchChars, `must be at most ${SUPPRESSION_LIMITS.searchChars} characters`)
          .describe('Part of the address, case-insensitive; % and _ are literal. Matches the stored form (an IDN domain as punycode)')
          .optional(),
        reason: z.enum(SUPPRESSION_REASONS).optional(),
      }),
    )
    .output(z.object({ data: z.array(suppression), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listSuppressions(ctx.deps, ctx.principal, input)),

  create: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/suppressions',
        operationId: 'createSuppression',
        tags,
        summary: 'Suppress an address; idempotent: an address already on the list answers with its entry, unchanged',
      },
      liveWrite: true,
    })
    .input(z.strictObject({ email: address, reason: callerReason }))
    .output(suppression)
    .mutation(({ ctx, input }) => addSuppression(ctx.deps, ctx.principal, input)),

  batch: orgProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/suppressions/batch',
        operationId: 'importSuppressions',
        tags,
        summary: `Suppress up to ${SUPPRESSION_LIMITS.batch.toLocaleString('en')} addresses; invalid ones are reported without failing the rest`,
      },
      liveWrite: true,
      bulkBody: true,
    })
    .input(
      z.strictObject({
        emails: z
          .array(z.string({ message: 'must be a string' }))
          .min(1, 'give at least one address')
          .max(SUPPRESSION_LIMITS.batch, `at most ${SUPPRESSION_LIMITS.batch} addresses per request`)
          .describe('Addresses; each is checked on its own, and repeats (after normalisation) count once'),
        reason: callerReason,
      }),
    )
    .output(
      z
        .object({
          added: z.number().int().describe('New entries'),
          alreadySuppressed: z.number().int().describe('Distinct valid addresses that were on the list already (left unchanged)'),
          invalid: z.array(z.object({ email: z.string().describe('As given'), error: z.string() })).describe('Addresses that are not valid, in request order'),
        })
        .meta({ id: 'SuppressionImport' }),
    )
    .mutation(({ ctx, input }) => addSuppressions(ctx.deps, ctx.principal, input)),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/suppressions/{id}', operationId: 'getSuppression', tags, summary: 'One entry, by entry id or by URL-encoded address (404 when the address is not suppressed)' } })
    .input(z.strictObject({ id: entryParam }))
    .output(suppression)
    .query(({ ctx, input }) => getSuppression(ctx.deps, ctx.principal, input.id)),

  delete: orgProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/suppressions/{id}', operationId: 'deleteSuppression', tags, summary: 'Un-suppress, by entry id or by URL-encoded address' },
      liveWrite: true,
    })
    .input(z.strictObject({ id: entryParam }))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await removeSuppression(ctx.deps, ctx.principal, input.id);
      return { message: 'Suppression deleted' };
    }),
});
