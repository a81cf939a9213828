'use client';

import { ErrorAlert } from '../../../components/error-alert';
import { RetryButton } from '../../../components/retry-button';
import { describeError } from '../../../lib/errors';
import { AttachmentsList } from './attachments-list';
import { BackToEmails } from './back-to-emails';
import { EmailContent } from './email-content';
import { EmailDetailSkeleton } from './email-detail-skeleton';
import { EmailHeader } from './email-header';
import { EmailNotFound } from './email-not-found';
import { KeyValueSection } from './key-value-section';
import { SchedulePanel } from './schedule-panel';
import { Timeline } from './timeline';
import { useEmail } from './use-email';

export function EmailDetailView({ id }: { id: string }) {
  const query = useEmail(id);

  if (query.isPending) return <EmailDetailSkeleton />;

  if (query.isError) {
    const { code } = describeError(query.error);
    if (code === 'NOT_FOUND' || code === 'VALIDATION_ERROR') return <EmailNotFound />;
    return (
      <div className="space-y-4">
        <BackToEmails />
        <ErrorAlert error={query.error} fallbackTitle="Could not load this email" action={<RetryButton query={query} />} />
      </div>
    );
  }

  const email = query.data;
  return (
    <div className="space-y-6" data-testid="email-detail" data-email-id={email.id}>
      <BackToEmails />
      <EmailHeader email={email} />
      <SchedulePanel email={email} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-6">
          <EmailContent email={email} />
          <KeyValueSection title="Tags" testId="tags" rows={email.tags.map((tag) => [tag.name, tag.value])} empty="No tags." />
          <KeyValueSection title="Custom headers" testId="headers" rows={Object.entries(email.headers)} empty="No custom headers." />
          <AttachmentsList emailId={email.id} attachments={email.attachments} />
        </div>
        <div className="order-first lg:sticky lg:top-6 lg:order-none">
          <Timeline email={email} />
        </div>
      </div>
    </div>
  );
}
