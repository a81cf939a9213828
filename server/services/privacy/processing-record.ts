import { and, asc, count, eq, sql } from 'drizzle-orm';
import { emailAttachments, organizations, suppressions } from '@/db/schema';
import type { Deps } from '../../deps';
import { ownEmail } from '../emails/read';
import { emailHistory } from '../emails/history';
import type { EmailStatus } from '../../vocabulary/email-statuses';
import { planOf } from '../plans/plans';
import type { Mode, Principal } from '../shared/principal';
import { messageRetention, type PartRetention } from './message-retention';
import { receivingPartiesOf, type ReceivingParty } from './receiving-parties';
import { categoriesOf, eventTypesOf, type CategoryView, type EventTypeCount } from './record-categories';
import { retentionTermsOf, type RetentionTerms } from './retention-terms';
import { PROCESSING_REGION, relayHostOf, SERVICE_NAME, serviceHosts, type ServiceHost } from './service-hosts';

/** GDPR Art. 30 / 15 for one message: what was processed, where, by whom, and until when (docs/privacy.md). */
export interface ProcessingRecord {
  emailId: string;
  mode: Mode;
  status: EmailStatus;
  createdAt: string;
  region: string;
  parties: {
    controller: { organizationId: string; name: string };
    processor: { name: string; baseUrl: string };
    receivingServers: ReceivingParty[];
  };
  hosts: ServiceHost[];
  categories: CategoryView[];
  events: EventTypeCount[];
  attachments: Array<{ id: string; filename: string; contentType: string; size: number; contentDeleteAt: string; contentDeleted: boolean }>;
  tracking: { opens: boolean; clicks: boolean };
  retention: RetentionTerms & { parts: PartRetention[] };
}

/**
 * The processing record of one of the caller's emails; 404 for another organization's or mode's
 * email, as every email read. Reads the message, its attachments' listing, its history and the
 * suppression entries it caused; never the attachment contents.
 */
export async function getProcessingRecord(deps: Pick<Deps, 'db' | 'clock' | 'config'>, principal: Principal, emailId: string): Promise<ProcessingRecord> {
  const row = await ownEmail(deps, principal, emailId);
  const [organizationRows, attachmentRows, history, [caused]] = await Promise.all([
    deps.db.select({ name: organizations.name, plan: organizations.plan }).from(organizations).where(eq(organizations.id, row.organizationId)),
    deps.db
      .select({
        id: emailAttachments.id,
        filename: emailAttachments.filename,
        contentType: emailAttachments.contentType,
        size: emailAttachments.size,
        expiresAt: emailAttachments.expiresAt,
        // Whether the content is there, without reading it.
        contentHeld: sql<boolean>`${emailAttachments.content} is not null`,
      })
      .from(emailAttachments)
      .where(eq(emailAttachments.emailId, row.id))
      .orderBy(asc(emailAttachments.id)),
    emailHistory(deps.db, row),
    deps.db.select({ count: count() }).from(suppressions).where(and(eq(suppressions.organizationId, row.organizationId), eq(suppressions.emailId, row.id))),
  ]);
  const organization = organizationRows[0]!;
  const now = deps.clock.now();
  const attachments = attachmentRows.map((attachment) => ({ ...attachment, contentHeld: attachment.contentHeld === true && attachment.expiresAt > now }));
  const terms = retentionTermsOf(planOf(organization.plan));
  const receivingServers = receivingPartiesOf(history, relayHostOf(deps.config)?.hostname ?? null);
  return {
    emailId: row.id,
    mode: row.mode,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    region: PROCESSING_REGION,
    parties: {
      controller: { organizationId: row.organizationId, name: organization.name },
      processor: { name: SERVICE_NAME, baseUrl: `${deps.config.appUrl}/api` },
      receivingServers,
    },
    hosts: [
      ...serviceHosts(deps.config),
      ...receivingServers.map((party) => ({
        host: party.host,
        role: 'recipient_mx' as const,
        purpose: `A receiving server, for ${party.recipients.join(', ') || 'the message'}`,
      })),
    ],
    categories: categoriesOf(row, attachments, history),
    events: eventTypesOf(history),
    attachments: attachments.map((attachment) => ({
      id: attachment.id,
      filename: attachment.filename,
      contentType: attachment.contentType,
      size: attachment.size,
      contentDeleteAt: attachment.expiresAt.toISOString(),
      contentDeleted: !attachment.contentHeld,
    })),
    tracking: { opens: row.trackOpens, clicks: row.trackClicks },
    retention: { ...terms, parts: messageRetention(row.createdAt, terms, attachments, history, caused?.count ?? 0, now) },
  };
}
