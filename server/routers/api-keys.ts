import { z } from 'zod';
import { API_KEY_DIALECTS, API_KEY_MODES, API_KEY_PERMISSIONS } from '../vocabulary/api-keys';
import { createApiKey, listApiKeys, renameApiKey, revokeApiKey } from '../services/api-keys/keys';
import { SMTP_CERTIFICATES, SMTP_USERNAME, smtpSettings } from '../services/api-keys/smtp-settings';
import { orgProcedure } from '../trpc/procedures';
import { router } from '../trpc/init';
import { nonBlank, idParam, isoDate, messageResponse } from './shared';

const permission = z.enum(API_KEY_PERMISSIONS);
const mode = z.enum(API_KEY_MODES);
const dialect = z
  .enum(API_KEY_DIALECTS)
  .describe("The shape of the key's REST answers. `spec` (default): camelCase, errors `{ error, code }`. `resend`: Resend's, for Resend's SDKs: snake_case fields, `object`, lists `{ object: \"list\", has_more, data }`, errors `{ statusCode, name, message }`; the secret is answered as `token`");

const apiKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    tokenStart: z.string().describe('The first characters of the secret'),
    permission,
    mode,
    domainId: z.uuid().nullable(),
    dialect,
    createdAt: isoDate,
    lastUsedAt: isoDate.nullable().describe('When the key last authenticated a request or an SMTP login, to the minute; null if never'),
  })
  .meta({ id: 'ApiKey' });

const smtpSettingsOutput = z.object({
  host: z.string(),
  starttlsPort: z.number().int().nullable().describe('STARTTLS port; null when off'),
  implicitTlsPort: z.number().int().nullable().describe('TLS-from-the-start port; null when off'),
  username: z.literal(SMTP_USERNAME),
  certificate: z.enum(SMTP_CERTIFICATES),
});

const keyName = nonBlank(100);

const createBody = z.strictObject({
  name: keyName,
  permission: permission.optional(),
  domain_id: z.uuid({ message: 'must be a UUID' }).optional(),
  mode: mode.optional().describe("Defaults to the calling key's mode; a test key may only create test keys"),
  dialect: dialect.optional(),
});

export const apiKeysRouter = router({
  create: orgProcedure
    .meta({
      openapi: { method: 'POST', path: '/api-keys', operationId: 'createApiKey', tags: ['API keys'], summary: 'Create an API key (the secret is shown once)' },
      successStatus: 201,
    })
    .input(createBody)
    .output(apiKey.extend({ key: z.string().describe('The secret; shown only in this response') }).meta({ id: 'CreatedApiKey' }))
    .mutation(({ ctx, input }) =>
      createApiKey(ctx.deps, ctx.principal, { name: input.name, permission: input.permission, domainId: input.domain_id, mode: input.mode, dialect: input.dialect }),
    ),

  list: orgProcedure
    .meta({ openapi: { method: 'GET', path: '/api-keys', operationId: 'listApiKeys', tags: ['API keys'], summary: 'List API keys (metadata only)' } })
    .input(z.object({}))
    .output(z.object({ data: z.array(apiKey) }))
    .query(async ({ ctx }) => ({ data: await listApiKeys(ctx.deps, ctx.principal) })),

  revoke: orgProcedure
    .meta({ openapi: { method: 'DELETE', path: '/api-keys/{id}', operationId: 'revokeApiKey', tags: ['API keys'], summary: 'Revoke an API key, effective immediately' } })
    .input(z.object({ id: idParam }))
    .output(messageResponse)
    .mutation(async ({ ctx, input }) => {
      await revokeApiKey(ctx.deps, ctx.principal, input.id);
      return { message: 'API key revoked' };
    }),

  /** Dashboard only: the spec names no REST path for renaming a key. */
  rename: orgProcedure
    .input(z.strictObject({ id: idParam, name: keyName }))
    .output(apiKey)
    .mutation(({ ctx, input }) => renameApiKey(ctx.deps, ctx.principal, input.id, input.name)),

  /** Dashboard only (no REST path): the settings shown beside the sending keys. */
  smtpSettings: orgProcedure.output(smtpSettingsOutput).query(({ ctx }) => smtpSettings(ctx.deps.config)),
});
