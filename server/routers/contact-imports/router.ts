import { z } from 'zod';
import { getContactImport, listContactImports } from '../../services/contact-imports/read';
import { router } from '../../trpc/init';
import { orgProcedure } from '../../trpc/procedures';
import { IMPORT_CONFLICT_MODES, IMPORT_ERRORS_KEPT, VISIBLE_IMPORT_STATUSES } from '../../vocabulary/contact-imports';
import { idParam, isoDate, pageQuery } from '../shared';

const summaryFields = {
  id: z.uuid(),
  status: z.enum(VISIBLE_IMPORT_STATUSES).describe('queued, in_progress, then completed or failed'),
  fileName: z.string().nullable(),
  segments: z.array(z.uuid()).describe('The segments (audiences) its contacts join'),
  onConflict: z.enum(IMPORT_CONFLICT_MODES),
  confirmedConsent: z
    .boolean()
    .describe("Declared with confirmed_consent=true: every row's person confirmed their consent, and each imported contact got a `confirmed` consent-ledger entry naming the import"),
  counts: z
    .object({ total: z.number().int(), created: z.number().int(), updated: z.number().int(), skipped: z.number().int(), failed: z.number().int() })
    .describe('Rows of the file (the header not counted) and what became of those read so far'),
  failure: z.object({ error: z.string(), code: z.string() }).nullable().describe('What stopped a failed import (the plan\'s contact cap: PLAN_LIMIT_EXCEEDED)'),
  createdAt: isoDate,
  startedAt: isoDate.nullable(),
  completedAt: isoDate.nullable(),
};

/** A row an import did not store: where it is, the address cell as the file had it, and why. */
export const importRowError = z
  .object({ row: z.number().int().describe('The line of the file the row starts on'), email: z.string(), error: z.string() })
  .meta({ id: 'ContactImportRowError' });

const contactImport = z
  .object({
    ...summaryFields,
    errors: z
      .array(importRowError)
      .describe(`The first ${IMPORT_ERRORS_KEPT} rows not stored, in file order; counts.failed counts them all`),
  })
  .meta({ id: 'ContactImport' });

const tags = ['Contacts'];

export const contactImportsRouter = router({
  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contacts/imports/{id}', operationId: 'getContactImport', tags, summary: 'A contact import: its status, counts and the rows it did not store' } })
    .input(z.strictObject({ id: idParam }))
    .output(contactImport)
    .query(({ ctx, input }) => getContactImport(ctx.deps, ctx.principal, input.id)),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/contacts/imports', operationId: 'listContactImports', tags, summary: 'Contact imports, newest first' } })
    .input(z.object(pageQuery({ max: 100, default: 20 })))
    .output(z.object({ data: z.array(z.object(summaryFields).meta({ id: 'ContactImportSummary' })), nextCursor: z.uuid().nullable() }))
    .query(({ ctx, input }) => listContactImports(ctx.deps, ctx.principal, { limit: input.limit, cursor: input.cursor })),
});
