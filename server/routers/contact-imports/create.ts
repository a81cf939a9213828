import { z } from 'zod';
import type { PlainRoute } from '../../trpc/plain-route';
import { authorize } from '../../trpc/procedures';
import { IMPORT_CONFLICT_MODES } from '../../vocabulary/contact-imports';
import { importFromForm } from './upload';
import { columnMapSchema } from './wire';

const accepted = z.object({ id: z.uuid(), status: z.literal('queued') }).meta({ id: 'ContactImportAccepted' });

const form = z.object({
  file: z.string().meta({ contentMediaType: 'text/csv', description: 'The CSV file (UTF-8; comma, semicolon or tab separated), up to CONTACT_IMPORT_MAX_BYTES (50 MiB)' }),
  column_map: columnMapSchema.optional(),
  segments: z
    .array(z.union([z.uuid(), z.object({ id: z.uuid() })]))
    .max(100)
    .optional()
    .describe('Segments (audiences) every imported contact joins: ids, or Resend\'s [{ "id": … }]'),
  topics: z
    .array(z.object({ id: z.uuid(), subscription: z.enum(['opt_in', 'opt_out']) }))
    .max(50)
    .optional()
    .describe("Topic choices every imported contact takes as its own: opt_out takes it out of the topic, opt_in puts it in unless it left the topic itself (an import never removes an opt-out)"),
  on_conflict: z.enum(IMPORT_CONFLICT_MODES).optional().describe('An address the organization has: upsert updates it, skip (the default, as Resend) leaves it untouched'),
  header: z.enum(['true', 'false']).optional().describe('Ours: false when the first row is a contact, not titles (columns are then named by position)'),
  confirmed_consent: z
    .enum(['true', 'false'])
    .optional()
    .describe("Ours: true declares that every row's person confirmed their consent (a double opt-in you hold): each imported contact gets a `confirmed` consent-ledger entry naming the import, and broadcasts for confirmed contacts only reach them"),
});

/**
 * `POST /contacts/imports` takes multipart/form-data (Resend's request shape), which
 * trpc-to-openapi cannot: a plain route that reads its own body, streamed (server/http/rest.ts).
 */
export const contactImportRoute: PlainRoute = {
  method: 'POST',
  path: '/contacts/imports',
  liveWrite: true,
  streamsBody: true,
  errors: [409],
  operation: {
    operationId: 'createContactImport',
    tags: ['Contacts'],
    summary: 'Import contacts from a CSV file, in the background; answers at once with the import to follow',
    description:
      'multipart/form-data: the CSV in `file`; `column_map`, `segments` and `topics` as JSON text (Resend sends them so). The file is stored as it arrives and imported in batches of 1,000 rows; follow it at GET /contacts/imports/{id}. Rows are checked as the contact routes check them (the address, names, each property value by its type); a row that fails is counted and listed with its line, the others are stored. An import adds opt-outs and never removes one. 413 past CONTACT_IMPORT_MAX_BYTES (50 MiB).',
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: form,
          encoding: { file: { contentType: 'text/csv' }, column_map: { contentType: 'application/json' }, segments: { contentType: 'application/json' }, topics: { contentType: 'application/json' } },
        },
      },
    },
    responses: {
      202: {
        description: 'Queued: the file is stored and the import will run in the background',
        headers: { Location: { description: 'The import: /api/contacts/imports/{id}', schema: { type: 'string' } } },
        content: { 'application/json': { schema: accepted } },
      },
    },
  },
  async handle({ req, res, ctx, deps, json }) {
    const principal = await authorize(ctx, { liveWrite: true });
    const view = await importFromForm(deps, principal, { headers: req.headers, body: req });
    res.setHeader('Location', `${deps.config.appUrl}/api/contacts/imports/${view.id}`);
    await json(202, { id: view.id, status: view.status });
  },
};
