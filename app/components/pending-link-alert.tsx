import { MailWarningIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { describeError } from '../lib/errors';
import { Alert } from './alert';
import { Button } from './button';

/** The resend mutation as the alert shows it: the server throttles it, and its 429 message is shown as it is. */
export interface LinkResend {
  onResend: () => void;
  isPending: boolean;
  /** Where the new link went, once it went. */
  sentTo: string | undefined;
  error: unknown;
  testId: string;
}

/**
 * A mailed confirmation link that waits to be opened, with "Resend the link" and what came of it:
 * the owner's address (the banner on every page) and a pending notification address (settings).
 * `resend` is left out for a person who may not ask for a new link.
 */
export function PendingLinkAlert({
  title,
  tone = 'warning',
  className,
  testId,
  resend,
  children,
}: {
  title: string;
  tone?: 'warning' | 'error';
  className?: string;
  testId: string;
  resend?: LinkResend;
  children: ReactNode;
}) {
  return (
    <Alert
      tone={tone}
      className={className}
      icon={<MailWarningIcon className="mt-0.5 size-4 shrink-0" />}
      title={title}
      action={
        resend && (
          <Button variant="secondary" size="sm" loading={resend.isPending} onClick={resend.onResend} data-testid={resend.testId}>
            Resend the link
          </Button>
        )
      }
    >
      <div data-testid={testId}>
        {children}
        {resend?.sentTo && (
          <p role="status" className="mt-1 font-medium">
            A new link is on its way to {resend.sentTo}.
          </p>
        )}
        {resend?.error != null && (
          <p role="alert" className="mt-1 font-medium text-red-700">
            {describeError(resend.error).message}
          </p>
        )}
      </div>
    </Alert>
  );
}
