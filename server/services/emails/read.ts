import { and, arrayContains, asc, eq } from 'drizzle-orm';
import { emailAttachments, emails } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { fetchPage, type Page } from '../shared/pagination';
import type { Principal } from '../shared/principal';
import { emailSource, type EmailSource } from './source';
import { emailHistory } from './history';
import type { EmailStatus } from '../../vocabulary/email-statuses';

type EmailRow = typeof emails.$inferSelect;

export interface EmailFilter {
  limit: number;
  cursor?: string;
  status?: EmailStatus;
  from?: string;
  to?: string;
  tag?: string[];
}

export interface EmailSummary {
  id: string;
  from: string;
  to: string[];
  subject: string;
  status: EmailStatus;
  tags: Array<{ name: string; value: string }>;
  scheduledAt: string | null;
  source: EmailSource;
  createdAt: string;
}

/** The columns a summary needs: a list page never reads the bodies. */
const SUMMARY_COLUMNS = {
  id: emails.id,
  from: emails.from,
  to: emails.to,
  subject: emails.subject,
  status: emails.status,
  tags: emails.tags,
  scheduledAt: emails.scheduledAt,
  submittedVia: emails.submittedVia,
  broadcastId: emails.broadcastId,
  createdAt: emails.createdAt,
};

type SummaryRow = Pick<EmailRow, keyof typeof SUMMARY_COLUMNS>;

const summary = (row: SummaryRow): EmailSummary => ({
  id: row.id,
  from: row.from,
  to: row.to,
  subject: row.subject,
  status: row.status,
  tags: row.tags,
  scheduledAt: row.scheduledAt?.toISOString() ?? null,
  source: emailSource(row),
  createdAt: row.createdAt.toISOString(),
});

/** Newest first; every filter ANDed; a test key sees test emails and a live key live ones. */
export async function listEmails(deps: Pick<Deps, 'db'>, principal: Principal, filter: EmailFilter): Promise<Page<EmailSummary>> {
  const page = await fetchPage(emails.id, filter, ({ where, orderBy, limit }) =>
    deps.db
      .select(SUMMARY_COLUMNS)
      .from(emails)
      .where(
        and(
          eq(emails.organizationId, principal.organizationId),
          eq(emails.mode, principal.mode),
          filter.status ? eq(emails.status, filter.status) : undefined,
          filter.from ? eq(emails.fromAddress, filter.from.trim().toLowerCase()) : undefined,
          filter.to ? arrayContains(emails.recipientAddresses, [filter.to.trim().toLowerCase()]) : undefined,
          filter.tag?.length ? arrayContains(emails.tagKeys, filter.tag) : undefined,
          where,
        ),
      )
      .orderBy(orderBy)
      .limit(limit),
  );
  return { data: page.data.map(summary), nextCursor: page.nextCursor };
}

/**
 * The caller's email, or 404: another organization's, the other mode's, and, to a key pinned to a
 * domain, one sent from any other domain (the sandbox included) are not found alike.
 */
export async function ownEmail(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<EmailRow> {
  const [row] = await deps.db
    .select()
    .from(emails)
    .where(
      and(
        eq(emails.id, id),
        eq(emails.organizationId, principal.organizationId),
        eq(emails.mode, principal.mode),
        principal.domainId ? eq(emails.domainId, principal.domainId) : undefined,
      ),
    );
  if (!row) throw notFound('Email');
  return row;
}

export async function getEmail(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string) {
  const row = await ownEmail(deps, principal, id);
  const [history, attachments] = await Promise.all([
    emailHistory(deps.db, row),
    deps.db
      .select({ id: emailAttachments.id, filename: emailAttachments.filename, contentType: emailAttachments.contentType, size: emailAttachments.size, expiresAt: emailAttachments.expiresAt })
      .from(emailAttachments)
      .where(eq(emailAttachments.emailId, id))
      .orderBy(asc(emailAttachments.id)),
  ]);
  return {
    ...summary(row),
    cc: row.cc,
    bcc: row.bcc,
    replyTo: row.replyTo,
    html: row.html,
    text: row.text,
    headers: row.headers,
    tracking: { opens: row.trackOpens, clicks: row.trackClicks },
    attachments: attachments.map((a) => ({ id: a.id, filename: a.filename, contentType: a.contentType, size: a.size, expired: a.expiresAt <= deps.clock.now() })),
    events: history.map((event) => ({ type: event.type, recipient: event.recipient, data: event.data, createdAt: event.createdAt.toISOString() })),
  };
}
