import { and, eq, sql } from 'drizzle-orm';
import { audienceMemberships, audiences, contacts, templates } from '@/db/schema';
import { receivesBroadcasts } from '../contacts/fields';
import { consentRequirement } from '../consent/confirmed';
import { propertyFallbacks } from '../contact-properties/fallbacks';
import { ownTopic } from '../topics/crud';
import { broadcastTopic } from '../topics/recipients';
import { canonicalContactId } from '../contacts/aliases';
import type { Db } from '@/db/client';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import type { Principal } from '../shared/principal';
import { renderForContact, SAMPLE_NAME, type BroadcastContent, type ContactValues } from './content';
import { ownBroadcast } from './own';
import { contentOf } from './test-send';
import { sampleUnsubscribeUrl } from '../unsubscribe/tokens';

/** Content being written, not saved yet: its own subject and bodies, or a template's (a subject of its own overriding the template's). */
export interface UnsavedContent {
  subject?: string;
  html?: string;
  text?: string;
  templateId?: string;
  previewText?: string;
  /** The audience it is written for, whose subscribed contacts the answer counts. */
  audienceId?: string;
  /** The topic it is to be sent under: only the members in it are counted. */
  topicId?: string;
  /** Only contacts with confirmed consent: the count says how many of them there are. */
  requireConfirmedConsent?: boolean;
}

/** A saved broadcast (as saved), or content from the composer. */
export type PreviewSource = { id: string } | { content: UnsavedContent };

export interface BroadcastPreview {
  subject: string;
  html: string | null;
  text: string | null;
  /** The contact it was rendered for; null: sample values (no contact chosen). */
  contact: { id: string; email: string; name: string | null } | null;
  /** Subscribed contacts of the audience now (in the topic, with one): whom a send would reach, before the suppression list. Null without an audience. */
  recipients: number | null;
}

/** Without a contact the preview says who it would greet, with values that are plainly not a person's. */
const SAMPLE_EMAIL = 'contact@example.com';


async function ownContact(db: Db, principal: Principal, given: string) {
  const id = await canonicalContactId(db, principal.organizationId, given);
  const [row] = await db
    .select({ id: contacts.id, email: contacts.email, name: contacts.name, firstName: contacts.firstName, lastName: contacts.lastName, properties: contacts.properties })
    .from(contacts)
    .where(and(eq(contacts.id, id), eq(contacts.organizationId, principal.organizationId)));
  if (!row) throw notFound('Contact');
  return row;
}

async function subscribedContacts(db: Db, principal: Principal, audienceId: string | null | undefined, topicId: string | null | undefined, requireConfirmed = false): Promise<number | null> {
  if (!audienceId) return null;
  const [audience] = await db
    .select({ id: audiences.id })
    .from(audiences)
    .where(and(eq(audiences.id, audienceId), eq(audiences.organizationId, principal.organizationId)));
  if (!audience) return null;
  // Another organization's topic is not found; the saved broadcast's own is the organization's.
  const topic = await broadcastTopic(db, topicId ? (await ownTopic(db, principal, topicId)).id : null);
  // The condition in the WHERE: a topic's choices are one semi-join (anti-join), not a lookup per member.
  const [row] = await db
    .select({ subscribed: sql<number>`count(*)::int` })
    .from(audienceMemberships)
    .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
    .where(and(eq(audienceMemberships.audienceId, audience.id), receivesBroadcasts(topic), consentRequirement(requireConfirmed)));
  return row?.subscribed ?? 0;
}

async function unsavedContent(db: Db, principal: Principal, content: UnsavedContent): Promise<BroadcastContent> {
  if (!content.templateId) return { subject: content.subject ?? '', html: content.html ?? null, text: content.text ?? null, previewText: content.previewText };
  const [template] = await db
    .select({ subject: templates.subject, html: templates.html, text: templates.text })
    .from(templates)
    .where(and(eq(templates.id, content.templateId), eq(templates.organizationId, principal.organizationId)));
  if (!template) throw notFound('Template');
  return { subject: content.subject || template.subject, html: template.html, text: template.text, previewText: content.previewText };
}

/**
 * The broadcast as one contact of its audience will get it (or with sample values), rendered as
 * the fan-out renders it: the same Liquid, the same checks (a 400 names the part), an unsubscribe
 * link that leads nowhere real. Sends nothing, stores nothing.
 */
export async function previewBroadcast(deps: Pick<Deps, 'db' | 'config' | 'templateRenderer'>, principal: Principal, source: PreviewSource, contactId?: string): Promise<BroadcastPreview> {
  const found = contactId ? await ownContact(deps.db, principal, contactId) : null;
  const contact = found && { id: found.id, email: found.email, name: found.name };
  const values: ContactValues = {
    email: found?.email ?? SAMPLE_EMAIL,
    name: found ? found.name : SAMPLE_NAME,
    firstName: found?.firstName,
    lastName: found?.lastName,
    properties: { ...(await propertyFallbacks(deps.db, principal.organizationId)), ...found?.properties },
    unsubscribeUrl: sampleUnsubscribeUrl(deps.config.appUrl, 'preview'),
  };
  if ('id' in source) {
    const row = await ownBroadcast(deps.db, principal, source.id);
    // Its own bodies (a template's are copied in when sending starts) are one version of the
    // broadcast, cached as the fan-out caches them; a template's may change under the same
    // version, so they are parsed afresh.
    const rendered =
      row.html !== null || row.text !== null
        ? await renderForContact(deps, { id: row.id, updatedAt: row.updatedAt }, { subject: row.subject ?? '', html: row.html, text: row.text, previewText: row.previewText }, values)
        : await renderForContact(deps, null, await contentOf(deps, row), values);
    return { subject: rendered.subject, html: rendered.html, text: rendered.text, contact, recipients: await subscribedContacts(deps.db, principal, row.audienceId, row.topicId, row.requireConfirmedConsent) };
  }
  // Unsaved content changes with every keystroke: parsed afresh, not kept in the cache of stored versions.
  const rendered = await renderForContact(deps, null, await unsavedContent(deps.db, principal, source.content), values);
  return { subject: rendered.subject, html: rendered.html, text: rendered.text, contact, recipients: await subscribedContacts(deps.db, principal, source.content.audienceId, source.content.topicId, source.content.requireConfirmedConsent) };
}
