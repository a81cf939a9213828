'use client';

import Link from 'next/link';
import { SelectField } from '../../components/field';
import type { OwnDomain } from './types';
import { useOwnDomains } from './use-own-domains';

/** The value of "any verified domain": no pin. */
export const ANY_DOMAIN = '';

/** Why a domain cannot send yet, beside its name; a pin to it is allowed and takes effect once it is verified. */
const NOT_READY: Record<Exclude<OwnDomain['status'], 'verified'>, string> = {
  not_started: 'not verified yet',
  pending: 'not verified yet',
  temporary_failure: 'not verified yet',
  partially_verified: 'partly verified',
  failed: 'verification failed',
};

/**
 * Pins a sending key to one of the organization's domains: sends from any other domain, the
 * sandbox included, are then refused (403). Offered only for sending keys, as the API takes it.
 */
export function DomainPinField({ value, onChange }: { value: string; onChange: (domainId: string) => void }) {
  const { query, domains } = useOwnDomains();
  const description =
    query.data && domains.length === 0 ? (
      <>
        You have no domain of your own yet:{' '}
        <Link href="/domains" className="font-medium text-indigo-600 hover:underline">
          add one
        </Link>{' '}
        to pin a key to it.
      </>
    ) : value === ANY_DOMAIN ? (
      'The key may send from any of your verified domains.'
    ) : (
      'The key may send only from this domain; a send from any other, the sandbox included, is refused.'
    );
  return (
    <SelectField label="Domain" name="domain" value={value} onChange={(event) => onChange(event.target.value)} description={description} disabled={domains.length === 0}>
      <option value={ANY_DOMAIN}>Any verified domain</option>
      {domains.map((domain) => (
        <option key={domain.id} value={domain.id}>
          Only {domain.name}
          {domain.status === 'verified' ? '' : ` (${NOT_READY[domain.status]})`}
        </option>
      ))}
    </SelectField>
  );
}
