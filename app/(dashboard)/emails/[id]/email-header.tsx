import { CopyButton } from '../../../components/copy-button';
import { ArrowRightIcon } from 'lucide-react';
import { RelativeTime } from '../../../components/relative-time';
import { formatPreciseDateTime } from '../../../lib/format';
import { isInFlight } from '../statuses';
import { EmailSourceBadge } from '../source-badge';
import { EmailStatusBadge } from '../status-badge';
import type { Email } from '../types';
import { AddressList } from './address-list';
import { engagementOf } from './engagement';
import { Fact } from './fact';
import { LiveIndicator } from './live-indicator';
import { SentByValue } from './sent-by';

const onOff = (value: boolean) => (value ? 'on' : 'off');

/** Subject and status (a scheduled email has its own panel instead of the live indicator), who it is from and to, what sent it, and when. */
export function EmailHeader({ email }: { email: Email }) {
  return (
    <section aria-labelledby="email-subject" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 id="email-subject" className="min-w-0 text-2xl font-semibold tracking-tight break-words text-slate-900">
          {email.subject}
        </h1>
        <EmailStatusBadge status={email.status} />
        <EmailSourceBadge source={email.source} />
        {isInFlight(email.status) && email.status !== 'scheduled' && <LiveIndicator />}
      </div>
      <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-600" data-testid="email-route">
        <span className="font-medium break-all text-slate-800">{email.from}</span>
        <ArrowRightIcon className="size-4 shrink-0 text-slate-400" />
        <span className="sr-only">to</span>
        <span className="break-all">{email.to.join(', ')}</span>
      </p>
      <dl className="mt-5 grid gap-x-6 gap-y-4 border-t border-slate-100 pt-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="email-envelope">
        <Fact label="To" testId="envelope-to">
          <AddressList addresses={email.to} />
        </Fact>
        {email.cc.length > 0 && (
          <Fact label="Cc" testId="envelope-cc">
            <AddressList addresses={email.cc} />
          </Fact>
        )}
        {email.bcc.length > 0 && (
          <Fact label="Bcc" testId="envelope-bcc">
            <AddressList addresses={email.bcc} />
          </Fact>
        )}
        {email.replyTo.length > 0 && (
          <Fact label="Reply-To" testId="envelope-reply-to">
            <AddressList addresses={email.replyTo} />
          </Fact>
        )}
        <Fact label="Created" testId="envelope-created">
          {formatPreciseDateTime(email.createdAt)}
          <span className="block text-xs text-slate-500">
            <RelativeTime iso={email.createdAt} />
          </span>
        </Fact>
        {email.scheduledAt && (
          <Fact label={email.status === 'scheduled' ? 'Scheduled for' : 'Was scheduled for'} testId="envelope-scheduled">
            {formatPreciseDateTime(email.scheduledAt)}
            {email.status === 'scheduled' && (
              <span className="block text-xs text-slate-500">
                <RelativeTime iso={email.scheduledAt} future />
              </span>
            )}
          </Fact>
        )}
        <Fact label="Sent by" testId="envelope-sent-by">
          <SentByValue emailId={email.id} />
        </Fact>
        <Fact label="Tracking">
          Opens {onOff(email.tracking.opens)}, clicks {onOff(email.tracking.clicks)}
          {(email.tracking.opens || email.tracking.clicks) && (
            <span className="block text-xs text-slate-500" data-testid="envelope-engagement">
              {engagementOf(email.events, 'email.opened', ['open', 'opens'])}, {engagementOf(email.events, 'email.clicked', ['click', 'clicks'])}
            </span>
          )}
        </Fact>
        <Fact label="Email ID">
          <span className="flex items-start gap-2">
            <code className="min-w-0 pt-1.5 font-mono text-xs break-all text-slate-700" data-testid="email-id">
              {email.id}
            </code>
            <CopyButton text={email.id} size="sm" iconOnly describe="email ID" />
          </span>
        </Fact>
      </dl>
    </section>
  );
}
