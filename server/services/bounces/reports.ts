import { and, eq, getTableName, sql } from 'drizzle-orm';
import { column, tableName } from '@/db/raw-sql';
import { emailEvents, emailRecipients, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { recordEmailEvents } from '../emails/events';
import { aggregateEmailStatus, IN_FLIGHT } from '../emails/aggregate-status';
import type { EmailStatus, RecipientStatus } from '../../vocabulary/email-statuses';
import type { EmailEventType } from '../../vocabulary/event-types';
import { suppressAddress } from '../suppressions/suppressions';
import { classifyResponse, explainComplaint } from './classify';

/**
 * Bounces and complaints that come back after a message left us: the bounce receiver hands each
 * report here with the email and recipient its VERP address names. Everything about one report
 * happens in one transaction, under a row lock on the email (taken before the recipient's row, the
 * order the dispatch outcome takes them in too), so two reports for the same email, or a report
 * and a delivery, never lose each other's recipient state. See docs/bounces.md.
 */

type DeliveryReportKind = 'hard' | 'soft' | 'complaint';

interface DeliveryReport {
  emailId: string;
  /** Position in the email's envelope order (its recipients' `recipient_index`), from the VERP address. */
  recipientIndex: number;
  kind: DeliveryReportKind;
  /** The remote server's words (DSN Diagnostic-Code). */
  diagnostic?: string;
  /** Enhanced status code (RFC 3463), e.g. 5.1.1. */
  status?: string;
  /** The recipient the report itself names; informational, the VERP address decides. */
  reportedRecipient?: string;
  /** ARF Feedback-Type of a complaint. */
  feedbackType?: string;
  /** The report's Message-ID: a repeated delay notice with the same id is recorded once. */
  reportId?: string;
  /** dsn (default for bounces and delays), arf (default for complaints), or e.g. test-mode simulation. */
  source?: string;
}

type DeliveryReportResult =
  | { recorded: true; recipient: string; recipientStatus: string; emailStatus: EmailStatus; suppressed: boolean }
  | { recorded: false; reason: 'unknown_email' | 'unknown_recipient' | 'not_sent' | 'duplicate' };

const EVENT_OF: Record<DeliveryReportKind, EmailEventType> = {
  hard: 'email.bounced',
  soft: 'email.delivery_delayed',
  complaint: 'email.complained',
};

/**
 * What a report does to one recipient's state: the new status (or the same one when the report
 * changes nothing about it), or null when the report must not be recorded at all.
 */
function nextRecipientStatus(kind: DeliveryReportKind, current: RecipientStatus): RecipientStatus | null {
  // Never sent to: a report cannot be about a message that did not leave.
  if (current === 'suppressed') return null;
  switch (kind) {
    case 'hard':
      // A complaint proves the mail arrived and outranks a later bounce; a bounce is recorded once.
      return current === 'bounced' || current === 'complained' ? null : 'bounced';
    case 'complaint':
      return current === 'complained' ? null : 'complained';
    case 'soft':
      // A delay notice after a final outcome is stale; before one it marks the recipient deferred.
      if (current === 'bounced' || current === 'complained') return null;
      return IN_FLIGHT.has(current) ? 'deferred' : current;
  }
}

/**
 * Records one bounce, delay or complaint for the recipient at `recipientIndex` of the email, of any
 * organization (the VERP tag already proved the address is ours):
 *
 *   - hard → recipient `bounced`, `email.bounced`, address suppressed (reason bounce) for live email;
 *   - soft → `email.delivery_delayed`; a recipient still pending becomes deferred; never suppresses;
 *   - complaint → recipient `complained`, `email.complained`, suppressed (reason complaint) for live email;
 *
 * then the email's status is recomputed with `aggregateEmailStatus`. Idempotent: a recipient
 * already bounced or complained records nothing more, and a delay notice is recorded once per
 * report Message-ID (or, without one, per status and diagnostic). Test-mode emails record their
 * events but never touch the suppression list.
 */
export async function recordDeliveryReport(deps: Pick<Deps, 'db' | 'clock' | 'jobs'>, report: DeliveryReport): Promise<DeliveryReportResult> {
  return deps.db.transaction(async (tx): Promise<DeliveryReportResult> => {
    const [email] = await tx
      .select({
        id: emails.id,
        organizationId: emails.organizationId,
        mode: emails.mode,
        status: emails.status,
        nextAttemptAt: emails.nextAttemptAt,
        from: emails.from,
        to: emails.to,
        subject: emails.subject,
        tags: emails.tags,
        broadcastId: emails.broadcastId,
      })
      .from(emails)
      .where(eq(emails.id, report.emailId))
      .for('no key update');
    if (!email) return { recorded: false, reason: 'unknown_email' };
    // Nothing of a scheduled or canceled email has left: no report can be about it.
    if (email.status === 'scheduled' || email.status === 'canceled') return { recorded: false, reason: 'not_sent' };
    const recipientRow = and(eq(emailRecipients.emailId, email.id), eq(emailRecipients.recipientIndex, report.recipientIndex));
    const [current] = await tx.select({ address: emailRecipients.address, status: emailRecipients.status }).from(emailRecipients).where(recipientRow);
    if (!current) return { recorded: false, reason: 'unknown_recipient' };

    const nextStatus = nextRecipientStatus(report.kind, current.status);
    if (nextStatus === null) return { recorded: false, reason: current.status === 'suppressed' ? 'not_sent' : 'duplicate' };

    const source = report.source ?? (report.kind === 'complaint' ? 'arf' : 'dsn');
    if (report.kind === 'soft') {
      const seen = await tx
        .select({ id: emailEvents.id })
        .from(emailEvents)
        .where(
          and(
            eq(emailEvents.emailId, email.id),
            eq(emailEvents.type, 'email.delivery_delayed'),
            eq(emailEvents.recipient, current.address),
            report.reportId
              ? sql`${emailEvents.data}->>'reportId' = ${report.reportId}`
              : sql`coalesce(${emailEvents.data}->>'status', '') = ${report.status ?? ''} and coalesce(${emailEvents.data}->>'diagnostic', '') = ${report.diagnostic ?? ''}`,
          ),
        )
        .limit(1);
      if (seen.length > 0) return { recorded: false, reason: 'duplicate' };
    }

    const eventType = EVENT_OF[report.kind];
    // Live email alone goes on the suppression list (below), and the explanation says so.
    const suppresses = email.mode === 'live';
    const eventData =
      report.kind === 'complaint'
        ? { feedbackType: report.feedbackType, source, reportId: report.reportId, bounce: explainComplaint({ feedbackType: report.feedbackType, suppressed: suppresses }) }
        : {
            diagnostic: report.diagnostic,
            status: report.status,
            source,
            reportId: report.reportId,
            reportedRecipient: report.reportedRecipient,
            bounce: classifyResponse({ enhanced: report.status, text: report.diagnostic ?? '', kind: report.kind === 'hard' ? 'bounced' : 'delayed', suppressed: suppresses }),
          };
    if (nextStatus !== current.status) {
      await tx
        .update(emailRecipients)
        .set({ status: nextStatus, nextAttemptAt: nextStatus === 'deferred' ? email.nextAttemptAt : null, ...(report.diagnostic ? { response: report.diagnostic } : {}) })
        .where(recipientRow);
    }
    // Derived from every recipient's row; still in flight: the pipeline's status stands, and its schedule (nextAttemptAt) is its own.
    const [updated] = await tx
      .update(emails)
      .set({
        status: sql`coalesce((select ${aggregateEmailStatus(column(emailRecipients, 'status', 'r'))} from ${tableName(emailRecipients, 'r')}
          where ${column(emailRecipients, 'emailId', 'r')} = ${column(emails, 'id', getTableName(emails))}), ${column(emails, 'status', getTableName(emails))})`,
        updatedAt: deps.clock.now(),
      })
      .where(eq(emails.id, email.id))
      .returning({ status: emails.status });
    const emailStatus = updated!.status;
    await recordEmailEvents(tx, deps, email, [{ type: eventType, recipient: current.address, data: eventData }]);

    let suppressed = false;
    if (suppresses && report.kind !== 'soft') {
      suppressed = await suppressAddress(tx, deps, {
        organizationId: email.organizationId,
        email: current.address,
        reason: report.kind === 'hard' ? 'bounce' : 'complaint',
        emailId: email.id,
      });
    }
    return { recorded: true, recipient: current.address, recipientStatus: nextStatus, emailStatus, suppressed };
  });
}
