'use client';

import Link from 'next/link';
import { buttonClasses } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { MailIcon } from 'lucide-react';
import { useDashboardMode } from '../../../lib/dashboard-mode';

/** An unknown id, an email of another organization, or one of the other mode (live and test emails stay apart). */
export function EmailNotFound() {
  const mode = useDashboardMode();
  const other = mode === 'live' ? 'test' : 'live';
  return (
    <EmptyState
      testId="email-not-found"
      icon={<MailIcon className="size-6" />}
      title="Email not found"
      action={
        <Link href="/emails" className={buttonClasses('secondary')}>
          Back to emails
        </Link>
      }
    >
      No email with this id was sent with a {mode} key of your account. Emails sent with a {other} key are shown in {other} mode.
    </EmptyState>
  );
}
