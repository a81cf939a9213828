import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type DomainsOutputs = RouterOutputs['domains'];

export type DomainSummary = DomainsOutputs['list']['data'][number];
export type Domain = DomainsOutputs['get'];
export type DnsRecord = Domain['records'][number];
export type DomainStatus = DomainSummary['status'];
export type RecordStatus = DnsRecord['status'];
export type CreateDomainInput = RouterInputs['domains']['create'];
