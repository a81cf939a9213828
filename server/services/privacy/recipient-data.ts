import { asc, eq } from 'drizzle-orm';
import { audienceMemberships, audiences, consentEntries, contacts, contactTopics, emails, events, suppressions, topics } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import type { ImportRowError } from '../../vocabulary/contact-imports';
import type { EmailStatus } from '../../vocabulary/email-statuses';
import type { EventType } from '../../vocabulary/event-types';
import type { Mode, Principal } from '../shared/principal';
import type { SuppressionReason } from '../../vocabulary/suppression-reasons';
import { automationDataOfAddress, type AddressReceivedEvent, type AddressRun } from '../automations';
import { importErrorsNaming } from '../contact-imports/errors-naming';
import { profileView, type ContactProfileView } from '../contacts/profile';
import { suppressionHash } from '../suppressions/address-hash';
import { consentEntriesOf, contactsOf, emailsOf, eventsOf, suppressionsOf } from './address-match';
import { consentEntryView, type ConsentEntryView } from '../consent/ledger';
import { formSubmissionsOfAddress, type AddressSubmission } from '../forms';
import { requireLiveCaller, requireOrganizationAuthority } from './authority';
import { subjectAddress } from './subject-address';

/** Everything an organization holds about one address (GDPR Art. 15), both modes (docs/privacy.md). */
export interface RecipientData {
  email: string;
  emails: Array<{ id: string; mode: Mode; subject: string; status: EmailStatus; createdAt: string; role: 'recipient' | 'sender' | 'both' }>;
  events: Array<{ id: string; type: EventType; createdAt: string; emailId: string | null }>;
  contacts: Array<{ id: string; audienceId: string; audienceName: string; name: string | null; subscribed: boolean; createdAt: string }>;
  suppressions: Array<{ id: string; reason: SuppressionReason; createdAt: string; emailId: string | null; hashed: boolean }>;
  /** The organization's contact of the address (names, properties, global unsubscribe, engagement), in an audience or not; null when none. */
  contact: ContactProfileView | null;
  /** The contact's own topic choices (a topic it never chose on is its default, not data about it). */
  topics: Array<{ id: string; name: string; subscription: 'opt_in' | 'opt_out'; updatedAt: string }>;
  /** Imports that list the address among the rows they did not import, with those rows. */
  imports: Array<{ id: string; fileName: string | null; createdAt: string; errors: ImportRowError[] }>;
  /** Its consent ledger (docs/consent.md): every change of its consent, oldest first, those kept by hash after an erasure included. */
  consent: ConsentEntryView[];
  /** Its submissions of the organization's sign-up forms, oldest first: the values, the consent text's version and the client (kept for the log retention: docs/consent.md). */
  formSubmissions: AddressSubmission[];
  /** Its automation runs, both modes, oldest first: the automation, the status, when it started and ended, each step taken (docs/automations.md). */
  automationRuns: AddressRun[];
  /** The events the organization sent for it with `POST /events/send`, oldest first, with their payloads. */
  receivedEvents: AddressReceivedEvent[];
}

export const DATA_SUBJECT_MESSAGE = 'Only the organization owner or an admin, or a full_access API key, can answer a data-subject request';

/**
 * What the organization holds for `given` (any spelling: it is normalised), oldest first in each
 * list; 404 when nothing at all is held, as for any resource the organization does not have.
 * A hashed suppression entry is found by hashing the address given: it is shown with `hashed: true`.
 */
export async function recipientData(deps: Pick<Deps, 'db' | 'encryptionKey'>, principal: Principal, given: string): Promise<RecipientData> {
  await requireOrganizationAuthority(deps, principal, DATA_SUBJECT_MESSAGE);
  requireLiveCaller(principal);
  const address = subjectAddress(given);
  const organizationId = principal.organizationId;
  const hash = suppressionHash(deps.encryptionKey, organizationId, address);
  const [emailRows, eventRows, contactRows, suppressionRows, profileRows, topicRows, importRows, consentRows, submissionRows, automationRows] = await Promise.all([
    deps.db
      .select({ id: emails.id, mode: emails.mode, subject: emails.subject, status: emails.status, createdAt: emails.createdAt, fromAddress: emails.fromAddress, recipients: emails.recipientAddresses })
      .from(emails)
      .where(emailsOf(organizationId, address))
      .orderBy(asc(emails.id)),
    deps.db.select({ id: events.id, type: events.type, createdAt: events.createdAt, data: events.data }).from(events).where(eventsOf(organizationId, address)).orderBy(asc(events.id)),
    deps.db
      .select({ id: contacts.id, audienceId: audienceMemberships.audienceId, audienceName: audiences.name, name: contacts.name, subscribed: audienceMemberships.subscribed, createdAt: audienceMemberships.createdAt })
      .from(audienceMemberships)
      .innerJoin(contacts, eq(contacts.id, audienceMemberships.contactId))
      .innerJoin(audiences, eq(audiences.id, audienceMemberships.audienceId))
      .where(contactsOf(organizationId, address))
      .orderBy(asc(contacts.id)),
    deps.db.select().from(suppressions).where(suppressionsOf(organizationId, address, hash)).orderBy(asc(suppressions.id)),
    deps.db.select().from(contacts).where(contactsOf(organizationId, address)),
    deps.db
      .select({ id: topics.id, name: topics.name, subscribed: contactTopics.subscribed, updatedAt: contactTopics.updatedAt })
      .from(contactTopics)
      .innerJoin(contacts, eq(contacts.id, contactTopics.contactId))
      .innerJoin(topics, eq(topics.id, contactTopics.topicId))
      .where(contactsOf(organizationId, address))
      .orderBy(asc(topics.createdAt), asc(topics.id)),
    importErrorsNaming(deps.db, organizationId, address),
    deps.db.select().from(consentEntries).where(consentEntriesOf(organizationId, address, hash)).orderBy(asc(consentEntries.id)),
    formSubmissionsOfAddress(deps.db, organizationId, address),
    automationDataOfAddress(deps.db, organizationId, address),
  ]);
  // Entries kept by hash after an erasure are listed, but hold nothing of the address: alone, they are a 404 as before.
  const held = emailRows.length + eventRows.length + contactRows.length + suppressionRows.length + profileRows.length + importRows.length + submissionRows.length + automationRows.runs.length + automationRows.receivedEvents.length + consentRows.filter((row) => row.email !== null).length;
  if (held === 0) throw notFound('Data for this address');
  return {
    email: address,
    emails: emailRows.map((row) => {
      const recipient = row.recipients.includes(address);
      const sender = row.fromAddress === address;
      return { id: row.id, mode: row.mode, subject: row.subject, status: row.status, createdAt: row.createdAt.toISOString(), role: recipient && sender ? 'both' : sender ? 'sender' : 'recipient' };
    }),
    events: eventRows.map((row) => ({ id: row.id, type: row.type, createdAt: row.createdAt.toISOString(), emailId: typeof row.data.emailId === 'string' ? row.data.emailId : null })),
    contacts: contactRows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    suppressions: suppressionRows.map((row) => ({ id: row.id, reason: row.reason, createdAt: row.createdAt.toISOString(), emailId: row.emailId, hashed: row.email === null })),
    contact: profileRows[0] ? profileView(profileRows[0]) : null,
    topics: topicRows.map((row) => ({ id: row.id, name: row.name, subscription: row.subscribed ? 'opt_in' : 'opt_out', updatedAt: row.updatedAt.toISOString() })),
    imports: importRows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    consent: consentRows.map(consentEntryView),
    formSubmissions: submissionRows,
    automationRuns: automationRows.runs,
    receivedEvents: automationRows.receivedEvents,
  };
}
