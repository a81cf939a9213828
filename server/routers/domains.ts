import { z } from 'zod';
import { DNS_RECORD_KINDS, DNS_RECORD_STATUSES, DOMAIN_STATUSES } from '../vocabulary/domain-statuses';
import { deleteDomain, domainConnectFor, getDomain, listDomains, registerDomain, requestVerification, updateDomain } from '../services/domains/crud';
import { router } from '../trpc/init';
import { orgProcedure } from '../trpc/procedures';
import { idParam, isoDate, jsonBoolean, messageResponse } from './shared';

const domainStatus = z.enum(DOMAIN_STATUSES);
const recordStatus = z.enum(DNS_RECORD_STATUSES);

const dnsRecord = z
  .object({
    record: z.enum(DNS_RECORD_KINDS),
    type: z.enum(['TXT', 'MX']),
    host: z.string().describe('The host relative to the domain, as DNS providers ask for it'),
    name: z.string().describe('The fully qualified name'),
    value: z.string(),
    parts: z.array(z.string()).optional().describe('A long TXT value split into the 255-byte strings to enter'),
    ttl: z.number().int(),
    priority: z.number().int().optional(),
    required: z.boolean().describe('DKIM and the return path (MX, SPF) decide verification; DMARC is recommended'),
    status: recordStatus,
  })
  .meta({ id: 'DnsRecord' });

const domainSummary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status: domainStatus,
    sandbox: z
      .boolean()
      .describe(
        'The shared sandbox domain every organization has: always verified, listed last, not counted against the plan. A test key sends from it to anyone; a live key only to the owner’s confirmed address',
      ),
    isPolling: z.boolean().describe('A verification chain is polling DNS right now'),
    lastCheckedAt: isoDate.nullable().describe('When the DNS was last read for it; null before the first check'),
    nextCheckAt: isoDate.nullable().describe('When it is read next (a past time: due now); null when no check is scheduled (failed)'),
    missingRecords: z
      .array(z.enum(DNS_RECORD_KINDS))
      .describe('The required records (DKIM, MX, SPF) the last check did not find with the value asked for: absent or another value. Empty before the first check and once verified'),
    createdAt: isoDate,
  })
  .meta({ id: 'DomainSummary' });

const domain = domainSummary
  .extend({
    region: z.literal('eu'),
    returnPath: z.string(),
    openTracking: z.boolean(),
    clickTracking: z.boolean(),
    dkim: z.object({ selector: z.string(), publicKey: z.string().describe('Base64 RSA-2048 public key (SubjectPublicKeyInfo)') }),
    records: z.array(dnsRecord),
    verifiedAt: isoDate.nullable(),
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'Domain' });

const registerBody = z.strictObject({
  name: z.string().max(300).describe('The domain to send from, e.g. example.com or mail.example.com; IDN allowed'),
  return_path: z.string().max(100).optional().describe('Subdomain label for bounces (default "send")'),
  open_tracking: jsonBoolean().optional().describe('Default open tracking for mail from this domain (default false)'),
  click_tracking: jsonBoolean().optional().describe('Default click tracking for mail from this domain (default false)'),
});

const updateBody = z.strictObject({
  id: idParam,
  open_tracking: jsonBoolean().optional().describe('Open tracking for mail from this domain accepted from now on'),
  click_tracking: jsonBoolean().optional().describe('Click tracking for mail from this domain accepted from now on'),
});

const domainConnectAnswer = z
  .discriminatedUnion('supported', [
    z.object({
      supported: z.literal(true),
      providerId: z.string(),
      providerName: z.string(),
      applyUrl: z.string().describe('Signed Domain Connect synchronous apply URL: send the person there'),
    }),
    z.object({ supported: z.literal(false), reason: z.string().describe('Why not, in words a person can act on') }),
  ])
  .meta({ id: 'DomainConnect' });

const tags = ['Domains'];

export const domainsRouter = router({
  create: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/domains', operationId: 'createDomain', tags, summary: 'Register a sending domain' }, successStatus: 201, liveWrite: true, errors: [409] })
    .input(registerBody)
    .output(domain)
    .mutation(({ ctx, input }) =>
      registerDomain(ctx.deps, ctx.principal, { name: input.name, returnPath: input.return_path, openTracking: input.open_tracking, clickTracking: input.click_tracking }),
    ),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/domains', operationId: 'listDomains', tags, summary: 'List sending domains with their verification status' } })
    .input(z.object({}))
    .output(z.object({ data: z.array(domainSummary) }))
    .query(async ({ ctx }) => ({ data: await listDomains(ctx.deps, ctx.principal) })),

  get: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/domains/{id}', operationId: 'getDomain', tags, summary: 'Get a domain: DKIM public key, records, polling indicator' } })
    .input(z.object({ id: idParam }))
    .output(domain)
    .query(({ ctx, input }) => getDomain(ctx.deps, ctx.principal, input.id)),

  update: orgProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/domains/{id}',
        operationId: 'updateDomain',
        tags,
        summary: 'Change the tracking defaults of a domain',
        description: 'Open and click tracking as the defaults of mail from this domain; a message can still override them. They apply to mail accepted from now on.',
      },
      liveWrite: true,
      // The shared sandbox domain belongs to the service: 409.
      errors: [409],
    })
    .input(updateBody)
    .output(domain)
    .mutation(({ ctx, input }) => updateDomain(ctx.deps, ctx.principal, input.id, { openTracking: input.open_tracking, clickTracking: input.click_tracking })),

  delete: orgProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/domains/{id}', operationId: 'deleteDomain', tags, summary: 'Delete a domain, retire its DKIM key and revoke keys pinned to it' },
      liveWrite: true,
      // The shared sandbox domain belongs to the service: 409.
      errors: [409],
    })
    .input(z.object({ id: idParam }))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await deleteDomain(ctx.deps, ctx.principal, input.id);
      return { message: 'Domain deleted' };
    }),

  domainConnect: orgProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/domains/{id}/domain-connect',
        operationId: 'getDomainConnect',
        tags,
        summary: "Can the domain's DNS provider apply the records automatically (Domain Connect)?",
      },
    })
    .input(z.object({ id: idParam }))
    .output(domainConnectAnswer)
    .query(({ ctx, input }) => domainConnectFor(ctx.deps, ctx.principal, input.id)),

  verify: orgProcedure
    .meta({ openapi: { method: 'POST', path: '/domains/{id}/verify', operationId: 'verifyDomain', tags, summary: 'Check the DNS records now' }, liveWrite: true, errors: [409] })
    .input(z.strictObject({ id: idParam }))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await requestVerification(ctx.deps, ctx.principal, input.id);
      return { message: 'Verification started' };
    }),
});
