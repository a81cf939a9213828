import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/routers';

type DomainsOutputs = inferRouterOutputs<AppRouter>['domains'];

export type DomainSummary = DomainsOutputs['list']['data'][number];
export type Domain = DomainsOutputs['get'];
export type DnsRecord = Domain['records'][number];
export type DomainStatus = DomainSummary['status'];
export type RecordStatus = DnsRecord['status'];
export type CreateDomainInput = inferRouterInputs<AppRouter>['domains']['create'];
