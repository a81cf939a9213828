import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/routers';

export type ApiKey = inferRouterOutputs<AppRouter>['apiKeys']['list']['data'][number];
export type CreatedApiKey = inferRouterOutputs<AppRouter>['apiKeys']['create'];
export type CreateApiKeyInput = inferRouterInputs<AppRouter>['apiKeys']['create'];
export type Permission = ApiKey['permission'];
export type Mode = ApiKey['mode'];
