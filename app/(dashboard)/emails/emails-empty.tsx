'use client';

import Link from 'next/link';
import { Button, buttonClasses } from '../../components/button';
import { DocsLink } from '../../components/docs-link';
import { EmptyState } from '../../components/empty-state';
import { FunnelIcon, MailIcon } from 'lucide-react';
import { useDashboardMode } from '../../lib/dashboard-mode';

/** No email at all yet: how to send the first one. */
export function EmailsEmpty() {
  const mode = useDashboardMode();
  return (
    <EmptyState
      testId="emails-empty"
      icon={<MailIcon className="size-6" />}
      title="No emails yet"
      action={
        <div className="flex flex-wrap justify-center gap-2">
          <Link href="/api-keys" className={buttonClasses('primary')}>
            Create an API key
          </Link>
          <DocsLink section="tag/emails" className={buttonClasses('secondary')}>
            Read the API docs
          </DocsLink>
        </div>
      }
    >
      {mode === 'live' ? (
        <>
          Send email with <code className="font-mono text-xs text-slate-700">POST /api/emails</code> and a live API key; each one shows up here with its
          status and delivery events. Emails sent with a test key are kept apart, in test mode.
        </>
      ) : (
        <>
          Send email with <code className="font-mono text-xs text-slate-700">POST /api/emails</code> and a test API key. Nothing is delivered: each email
          plays out its delivery here in a few seconds. Emails sent with a live key are listed in live mode.
        </>
      )}
    </EmptyState>
  );
}

/** Emails exist, but none matches the filters. */
export function EmailsNoMatch({ onClear }: { onClear: () => void }) {
  return (
    <EmptyState
      testId="emails-no-match"
      icon={<FunnelIcon className="size-6" />}
      title="No emails match these filters"
      action={
        <Button variant="secondary" onClick={onClear}>
          Clear filters
        </Button>
      }
    >
      The recipient filter matches a whole address (to, cc or bcc), and every tag given must be on the email.
    </EmptyState>
  );
}
