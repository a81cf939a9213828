import { z } from 'zod';
import { listContactConsent } from '../services/consent/ledger';
import { CONSENT_ACTIONS, CONSENT_VIAS } from '../vocabulary/consent';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { contactParam } from './contact-param';

// A contact's consent ledger (docs/consent.md): every change of its consent, oldest first.

export const consentEntry = z
  .object({
    id: z.string().describe("The entry's place in the ledger: a later entry has a larger id"),
    action: z.enum(CONSENT_ACTIONS),
    email: z.string().nullable().describe('The address as it was when written; null once the address was erased'),
    audienceId: z.uuid().nullable().describe('The audience (segment) the change was about; null for the organization as a whole or a topic'),
    topicId: z.uuid().nullable(),
    via: z.enum(CONSENT_VIAS).describe('What the change came through'),
    apiKeyId: z.uuid().nullable(),
    userId: z.string().nullable().describe('The dashboard member who made the change (or started the import)'),
    importId: z.uuid().nullable(),
    formId: z.uuid().nullable(),
    formVersion: z.number().int().nullable().describe('The version of the form\'s consent text the person was shown'),
    emailId: z.uuid().nullable().describe('The email whose link, page or complaint the change came from'),
    clientAddress: z.string().nullable().describe("The person's own client, for a change they made themselves"),
    userAgent: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'ConsentEntry' });

export const contactConsentRouter = router({
  list: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/contacts/{idOrEmail}/consent',
        operationId: 'listContactConsent',
        tags: ['Contacts'],
        summary: "The contact's consent ledger, oldest first",
        description:
          'Every change of the contact\'s consent: what changed, when, through what (form and consent text version, API key, import, dashboard member, one-click, preference page, complaint, …) and, for a change the person made, from which client. Entries are never rewritten; an erased address\'s entries keep only its keyed hash. A deleted contact\'s entries stay readable by its address. Pass `nextCursor` as `after` for the next page.',
      },
    })
    .input(
      z.strictObject({
        idOrEmail: contactParam,
        after: z.string().max(18).regex(/^\d{1,18}$/, 'must be the id of a consent entry (the nextCursor of a previous page)').optional(),
        limit: z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be between 1 and 1000').max(1000, 'must be between 1 and 1000').default(100),
      }),
    )
    .output(z.object({ data: z.array(consentEntry), nextCursor: z.string().nullable().describe('The id to pass as `after` next (the last one of this page)'), hasMore: z.boolean() }).meta({ id: 'ConsentEntryList' }))
    .query(({ ctx, input }) => listContactConsent(ctx.deps, ctx.principal, input.idOrEmail, { after: input.after, limit: input.limit })),
});
