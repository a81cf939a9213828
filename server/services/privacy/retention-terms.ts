import { ATTACHMENT_RETENTION_MS } from '../emails/attachments';
import { AUDIT_RETENTION_DAYS } from '../audit/retention';
import type { Plan } from '../plans/plans';
import { DAY_MS } from '../shared/time';

/**
 * How long each kind of data is kept under a plan, as the hourly retention sweep applies it
 * (emails/retention.ts): by the plan stored on the organization, so a plan change moves the dates.
 */
export interface RetentionTerms {
  plan: { id: string; label: string };
  /** The email record, its bodies and history, and the event log with its webhook deliveries. */
  logRetentionDays: number;
  /** Attachment contents; the email keeps listing name, size and type. */
  attachmentRetentionDays: number;
  /** The audit log, at every plan. */
  auditRetentionDays: number;
}

export const ATTACHMENT_RETENTION_DAYS = ATTACHMENT_RETENTION_MS / DAY_MS;

/** How often the retention sweep runs: data past its date is gone within this much after it. */
export const RETENTION_SWEEP_HOURS = 1;

export const retentionTermsOf = (plan: Plan): RetentionTerms => ({
  plan: { id: plan.id, label: plan.label },
  logRetentionDays: plan.logRetentionDays,
  attachmentRetentionDays: ATTACHMENT_RETENTION_DAYS,
  auditRetentionDays: AUDIT_RETENTION_DAYS,
});

export const daysAfter = (from: Date, days: number): Date => new Date(from.getTime() + days * DAY_MS);
