import type { emails } from '@/db/schema';
import type { EmailStatus } from '../../../vocabulary/email-statuses';
import type { RecipientState } from '../recipients';

/** An email's row as stored. */
export type EmailRow = typeof emails.$inferSelect;

/** An email as the dispatcher's claim returns it. */
export type ClaimedEmail = EmailRow & {
  /** The domain's active DKIM key when claimed; null when the domain has none (deleted). */
  signingKeyId: string | null;
  hasAttachments: boolean;
  /** Its recipients' rows as they stood at the claim, in envelope order. */
  recipients: RecipientState[];
};

/** What one dispatch step did to an email. */
export interface DispatchResult {
  outcome: 'skipped' | EmailStatus;
  /** When the email is due again (a retry, a test-mode step), or null when it is done. */
  nextAttemptAt: string | null;
}

/**
 * A step that failed before anything left the process (the message could not be built or signed,
 * its parts could not be read): giving the email back cannot send it twice.
 */
export class NotSentError extends Error {
  constructor(cause: unknown) {
    super(`nothing was sent: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'NotSentError';
  }
}
