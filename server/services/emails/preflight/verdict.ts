// What a preflight answers for one email, declared once. Imports only types.
import type { Deps } from '../../../deps';
import type { ErrorCode } from '../../../errors';
import type { SuppressionReason } from '../../../vocabulary/suppression-reasons';

/** What `POST /emails` would do with one recipient: send to it, record it as suppressed, or send to a domain that takes no mail. */
export const RECIPIENT_OUTCOMES = ['send', 'suppressed', 'undeliverable'] as const;
export type RecipientOutcome = (typeof RECIPIENT_OUTCOMES)[number];

export interface RecipientVerdict {
  email: string;
  field: 'to' | 'cc' | 'bcc';
  outcome: RecipientOutcome;
  /** The suppression list's entry, for a suppressed recipient. */
  suppression: { id: string; reason: SuppressionReason; emailId: string | null; createdAt: string } | null;
}

/** One limit as the send would meet it: its size, what is used, what the send asks and what is left after it. */
export interface LimitUse {
  limit: number;
  used: number;
  requested: number;
  left: number;
}

export interface LimitsVerdict {
  daily: LimitUse & { resetsAt: string };
  monthly: LimitUse & { quota: number; overage: boolean; resetsAt: string };
  /** List-shaped sends (a batch of one message to many) count against it until an operator reviews the account; null once reviewed. */
  listAllowance: LimitUse | null;
}

export const WARNING_CODES = ['from_not_aligned', 'text_part_derived', 'html_clipped', 'url_shortener', 'missing_unsubscribe'] as const;
export type WarningCode = (typeof WARNING_CODES)[number];

export interface PreflightWarning {
  code: WarningCode;
  message: string;
}

export interface Refusal {
  error: string;
  code: ErrorCode;
}

export interface PreflightVerdict {
  accepted: boolean;
  /** The HTTP status `POST /emails` would answer (200 when accepted). */
  status: number;
  refusal: Refusal | null;
  /** With an Idempotency-Key already used within 24 hours: the email `POST /emails` would answer with, sending nothing. */
  replayOf: string | null;
  scheduledAt: string | null;
  /** Null when a refusal came before the recipients were checked. */
  recipients: RecipientVerdict[] | null;
  /** Null in test mode (nothing counted) and when a refusal came before the limits. */
  limits: LimitsVerdict | null;
  /** The subject and bodies a template renders to; null for an email that gives its own. */
  rendered: { subject: string; html: string | null; text: string | null } | null;
  warnings: PreflightWarning[];
}

export type PreflightDeps = Pick<Deps, 'db' | 'config' | 'clock' | 'encryptionKey' | 'templateRenderer'>;
