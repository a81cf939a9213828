import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

export type ApiKey = RouterOutputs['apiKeys']['list']['data'][number];
export type CreatedApiKey = RouterOutputs['apiKeys']['create'];
export type CreateApiKeyInput = RouterInputs['apiKeys']['create'];
export type Permission = ApiKey['permission'];
export type Mode = ApiKey['mode'];
export type Dialect = ApiKey['dialect'];
export type SmtpSettings = RouterOutputs['apiKeys']['smtpSettings'];
export type OwnDomain = RouterOutputs['domains']['list']['data'][number];
