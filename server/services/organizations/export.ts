import { asc, desc, eq, isNotNull, and } from 'drizzle-orm';
import { apiKeys, audienceMemberships, audiences, auditEvents, broadcasts, contacts, domains, emails, members, organizations, suppressions, templates, users, webhooks } from '@/db/schema';
import type { Db } from '@/db/client';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import { notFound } from '../../errors';

/** The most recent emails listed (their addresses, subject and status; bodies are not). A log past this is the log's own retention's business. */
export const EXPORT_EMAILS_MAX = 50_000;
/** Bumped when the document's shape changes. */
export const EXPORT_FORMAT = 'eu-mail.organization-export.v1';

/** A table whose rows are an organization's, each with when it was made. */
type OrganizationTable = PgTable & { organizationId: PgColumn; createdAt: PgColumn };

/** The organization's rows of `table` as `fields`, the oldest first: most of the export's lists. */
function oldestFirst<Fields extends SelectedFields>(tx: Db, table: OrganizationTable, fields: Fields, organizationId: string) {
  return tx.select(fields).from(table).where(eq(table.organizationId, organizationId)).orderBy(asc(table.createdAt));
}

/**
 * What the organization holds, as one JSON document, read in the caller's transaction: what
 * deletion will erase, without secrets (no key hashes, signing secrets or DKIM private keys:
 * they are worthless outside, and dangerous in a download). Listed in docs/organization-settings.md.
 */
export async function buildOrganizationExport(tx: Db, organizationId: string, now: Date): Promise<string> {
  const [organization] = await tx
    .select({
      id: organizations.id,
      name: organizations.name,
      plan: organizations.plan,
      ownerEmail: organizations.ownerEmail,
      notificationEmail: organizations.notificationEmail,
      createdAt: organizations.createdAt,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!organization) throw notFound('Organization');
  const of = <T extends { organizationId: unknown }>(table: T) => eq(table.organizationId as typeof organizations.id, organizationId);
  const document = {
    format: EXPORT_FORMAT,
    exportedAt: now,
    organization,
    members: await tx
      .select({ name: users.name, email: users.email, role: members.role, joinedAt: members.createdAt })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(eq(members.organizationId, organizationId))
      .orderBy(asc(members.createdAt)),
    domains: await oldestFirst(tx, domains, { id: domains.id, name: domains.name, status: domains.status, openTracking: domains.openTracking, clickTracking: domains.clickTracking, createdAt: domains.createdAt, verifiedAt: domains.verifiedAt }, organizationId),
    apiKeys: await oldestFirst(tx, apiKeys, { id: apiKeys.id, name: apiKeys.name, tokenStart: apiKeys.tokenStart, permission: apiKeys.permission, mode: apiKeys.mode, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt }, organizationId),
    webhooks: await oldestFirst(tx, webhooks, { id: webhooks.id, url: webhooks.url, events: webhooks.events, createdAt: webhooks.createdAt }, organizationId),
    audiences: await oldestFirst(tx, audiences, { id: audiences.id, name: audiences.name, createdAt: audiences.createdAt }, organizationId),
    // One row per contact in each of its audiences, as the spec's contacts read.
    contacts: await tx
      .select({ audienceId: audienceMemberships.audienceId, email: contacts.email, name: contacts.name, subscribed: audienceMemberships.subscribed, createdAt: audienceMemberships.createdAt })
      .from(audienceMemberships)
      .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
      .where(of(contacts))
      .orderBy(asc(audienceMemberships.audienceId), asc(contacts.id)),
    // Entries of erased addresses are kept only as a hash: nothing to give back.
    suppressions: await tx
      .select({ email: suppressions.email, reason: suppressions.reason, createdAt: suppressions.createdAt })
      .from(suppressions)
      .where(and(of(suppressions), isNotNull(suppressions.email)))
      .orderBy(asc(suppressions.createdAt)),
    templates: await oldestFirst(tx, templates, { id: templates.id, name: templates.name, subject: templates.subject, html: templates.html, text: templates.text, createdAt: templates.createdAt, updatedAt: templates.updatedAt }, organizationId),
    broadcasts: await oldestFirst(tx, broadcasts, {
      id: broadcasts.id,
      name: broadcasts.name,
      audienceId: broadcasts.audienceId,
      from: broadcasts.from,
      subject: broadcasts.subject,
      html: broadcasts.html,
      text: broadcasts.text,
      status: broadcasts.status,
      recipients: broadcasts.recipients,
      sent: broadcasts.sent,
      delivered: broadcasts.delivered,
      bounced: broadcasts.bounced,
      createdAt: broadcasts.createdAt,
      sentAt: broadcasts.sentAt,
    }, organizationId),
    emails: await tx
      .select({ id: emails.id, mode: emails.mode, from: emails.from, to: emails.to, cc: emails.cc, bcc: emails.bcc, subject: emails.subject, status: emails.status, createdAt: emails.createdAt })
      .from(emails)
      .where(of(emails))
      .orderBy(desc(emails.createdAt))
      .limit(EXPORT_EMAILS_MAX),
    auditLog: await tx
      .select({
        occurredAt: auditEvents.occurredAt,
        actorKind: auditEvents.actorKind,
        actor: auditEvents.actorLabel,
        action: auditEvents.action,
        targetType: auditEvents.targetType,
        target: auditEvents.targetLabel,
        details: auditEvents.details,
      })
      .from(auditEvents)
      .where(of(auditEvents))
      .orderBy(asc(auditEvents.occurredAt)),
  };
  return JSON.stringify(document, null, 2);
}
