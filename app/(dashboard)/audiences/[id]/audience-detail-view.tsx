'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { describeError } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { AudienceDetailSkeleton } from './audience-detail-skeleton';
import { AudienceHeader } from './audience-header';
import { AudienceNotFound } from './audience-not-found';
import { BackToAudiences } from './back-to-audiences';
import { ContactsSection } from './contacts-section';
import { DeleteAudienceSection } from './delete-audience-section';
import { RulesSection } from './rules-section';
import { SunsetSection } from './sunset-section';

export function AudienceDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  // As a segment: an audience, with its rules and their live count when it is defined by them.
  const query = useQuery(trpc.segments.get.queryOptions({ id }));

  if (query.isPending) return <AudienceDetailSkeleton />;

  if (query.isError) {
    const { code } = describeError(query.error);
    if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return <AudienceNotFound />;
    return (
      <div className="space-y-4">
        <BackToAudiences />
        <ErrorAlert error={query.error} fallbackTitle="Could not load this audience" action={<RetryButton query={query} />} />
      </div>
    );
  }

  const audience = query.data;
  return (
    <div className="space-y-6" data-testid="audience-detail" data-audience-id={audience.id} data-rules={audience.rules ? 'true' : 'false'}>
      <BackToAudiences />
      <AudienceHeader audience={audience} />
      {audience.rules && <RulesSection segment={audience} rules={audience.rules} />}
      <SunsetSection audience={audience} />
      <ContactsSection audience={audience} />
      <DeleteAudienceSection audience={audience} />
    </div>
  );
}
