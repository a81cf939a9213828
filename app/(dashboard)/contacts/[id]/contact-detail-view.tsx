'use client';

import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { describeError } from '../../../lib/errors';
import { useTRPC } from '../../../lib/trpc';
import { BackToContacts } from './back-to-contacts';
import { ContactDetailSkeleton } from './contact-detail-skeleton';
import { ContactHeader } from './contact-header';
import { ConsentSection } from './consent-section';
import { ContactNotFound } from './contact-not-found';
import { DeleteContactSection } from './delete-contact-section';
import { EngagementSection } from './engagement-section';
import { PendingSection } from './pending-section';
import { PropertiesSection } from './properties-section';
import { SegmentsSection } from './segments-section';
import { SubscriptionSection } from './subscription-section';
import { TestModeNote } from './test-mode-note';
import { TopicsSection } from './topics-section';

/** One contact: who it is, whether it left everything, how it engaged, its property values, segments and topics, its consent history, and deleting it. */
export function ContactDetailView({ id }: { id: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.contacts.get.queryOptions({ idOrEmail: id }));

  if (query.isPending) return <ContactDetailSkeleton />;

  if (query.isError) {
    const { code } = describeError(query.error);
    if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return <ContactNotFound />;
    return (
      <div className="space-y-4">
        <BackToContacts />
        <ErrorAlert error={query.error} fallbackTitle="Could not load this contact" action={<RetryButton query={query} />} />
      </div>
    );
  }

  const contact = query.data;
  return (
    <div className="space-y-6" data-testid="contact-detail" data-contact-id={contact.id}>
      <BackToContacts />
      <TestModeNote />
      <ContactHeader contact={contact} />
      {contact.pending && <PendingSection contact={contact} />}
      <SubscriptionSection contact={contact} />
      <EngagementSection engagement={contact.engagement} />
      <PropertiesSection contact={contact} />
      <SegmentsSection contact={contact} />
      <TopicsSection contact={contact} />
      <ConsentSection contact={contact} />
      <DeleteContactSection contact={contact} />
    </div>
  );
}
