'use client';

import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { describeError } from '../../../lib/errors';
import { DeleteDomainSection } from './delete-domain-section';
import { DnsRecordsSection } from './dns-records-section';
import { DomainDetailSkeleton } from './domain-detail-skeleton';
import { DomainFacts } from './domain-facts';
import { DomainHeader } from './domain-header';
import { DomainNotFound } from './domain-not-found';
import { BackToDomains } from './back-to-domains';
import { useDomain } from './use-domain';
import { TrackingSection } from './tracking-section';
import { VerificationNotice } from './verification-notice';

export function DomainDetailView({ id }: { id: string }) {
  const { query, watch } = useDomain(id);

  if (query.isPending) return <DomainDetailSkeleton />;

  if (query.isError) {
    const { code } = describeError(query.error);
    if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return <DomainNotFound />;
    return (
      <>
        <BackToDomains />
        <ErrorAlert error={query.error} fallbackTitle="Could not load this domain" action={<RetryButton query={query} />} />
      </>
    );
  }

  const domain = query.data;
  return (
    <div className="space-y-8" data-testid="domain-detail" data-domain-id={domain.id}>
      <div className="space-y-4">
        <BackToDomains />
        <DomainHeader domain={domain} onVerifyStarted={watch} />
        <VerificationNotice domain={domain} />
      </div>
      <DnsRecordsSection domain={domain} />
      {!domain.sandbox && <TrackingSection domain={domain} />}
      <DomainFacts domain={domain} />
      <DeleteDomainSection domain={domain} />
    </div>
  );
}
