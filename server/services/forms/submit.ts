import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audienceMemberships, audiences, contactProperties, contacts, domains, formSubmissions, forms, organizations, suppressions, topics, contactTopics } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import { newId } from '../../ids';
import type { FormSubmissionStatus } from '../../vocabulary/forms';
import { logConsentChanges } from '../consent/events';
import { addedToSegment, contactCreated, topicSubscribed, topicsJoinedFrom } from '../automations/triggers/contact-events';
import { raiseEvents } from '../automations/triggers/raise';
import { declareConsentSource, type ConsentSource } from '../consent/source';
import { requestConfirmation, wakeConfirmation, type RequestedConfirmation } from '../double-opt-in/request';
import { confirmationTemplateOrBuiltIn } from '../double-opt-in/template';
import type { Plan } from '../plans/plan-table';
import { organizationPrincipal } from '../shared/principal';
import { propertyChecker } from '../contact-properties/assign';
import { contactAddressOrRefuse } from '../contacts/fields';
import { isDeliverableDomain } from '../emails/accept/recipient-domains';
import { planInForce } from '../plans/effective';
import { recordEvent } from '../shared/events';
import type { FormRow } from './crud';
import { decideSubmission } from './decision';

/** A name as a form takes it. */
export const FORM_NAME_FIELD_MAX = 200;

/** What a person typed, as the edge read it (form-encoded or JSON), not checked yet. */
export interface RawSubmission {
  email: unknown;
  firstName?: unknown;
  lastName?: unknown;
  properties?: Record<string, unknown>;
}

/** The values of a submission once checked: what the contact gets (or, awaiting confirmation, will get). */
export interface SubmittedValues {
  email: string;
  firstName: string | null;
  lastName: string | null;
  properties: Record<string, string | number | boolean>;
}

/** Where the person submitted from: kept on the submission and the ledger entries (docs/consent.md). */
export interface SubmissionClient {
  address: string | null;
  userAgent: string | null;
}

/** The form behind a public key, or null: what the edge needs before reading a body (origins, redirects). */
export async function formByKey(db: Db, publicKey: string): Promise<FormRow | null> {
  const [row] = await db.select().from(forms).where(eq(forms.publicKey, publicKey));
  return row ?? null;
}

/** The submitted address, normalised as a contact's, or 400 naming `email`: the per-address rate limit counts this. */
export function submittedAddress(email: unknown): string {
  if (typeof email !== 'string' || email.trim() === '') throw validationError('email: is required');
  if (email.length > 320) throw validationError('email: is longer than an address can be');
  return contactAddressOrRefuse(email, 'email');
}

const optionalText = (value: unknown, field: string): string | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw validationError(`${field}: must be text`);
  const text = value.trim();
  if (text.length > FORM_NAME_FIELD_MAX) throw validationError(`${field}: must be at most ${FORM_NAME_FIELD_MAX} characters`);
  return text === '' ? null : text;
};

/** A form posts text: a number or a yes/no property arrives as a string and is read as its type before the usual check. */
function fromFormText(type: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (type === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'boolean') {
    const lower = value.trim().toLowerCase();
    if (['true', 'on', 'yes', '1'].includes(lower)) return true;
    if (['false', 'off', 'no', '0'].includes(lower)) return false;
  }
  return value;
}

/** The values the form asks for, checked as every write of a contact checks them; anything else given is passed over. */
async function checkValues(db: Db, form: FormRow, raw: RawSubmission, email: string): Promise<SubmittedValues> {
  const firstName = form.askFirstName ? optionalText(raw.firstName, 'first_name') : null;
  const lastName = form.askLastName ? optionalText(raw.lastName, 'last_name') : null;
  const given: Record<string, unknown> = {};
  if (form.propertyKeys.length > 0) {
    const types = new Map(
      (await db.select({ key: contactProperties.key, type: contactProperties.type }).from(contactProperties).where(eq(contactProperties.organizationId, form.organizationId))).map((row) => [
        row.key,
        row.type,
      ]),
    );
    for (const key of form.propertyKeys) {
      const value = raw.properties?.[key];
      // A property deleted since the form was made is no longer asked; an empty field says nothing.
      if (!types.has(key) || value === undefined || value === null || value === '') continue;
      given[key] = fromFormText(types.get(key)!, value);
    }
  }
  const properties = Object.keys(given).length > 0 ? (await propertyChecker(db, form.organizationId))(given).set : {};
  return { email, firstName, lastName, properties };
}

/** The address's domain must receive mail (an MX, or an address record as the implicit MX); a DNS that cannot tell lets it through. */
async function checkMailDomain(deps: Pick<Deps, 'config' | 'clock'>, email: string): Promise<void> {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (!(await isDeliverableDomain(domain, deps.config.dnsServers, deps.clock.now().getTime()))) {
    throw validationError(`email: the domain ${domain} does not receive email; check the address`);
  }
}

/**
 * A form takes no more contacts while the organization is at its plan's cap. Refused for every
 * address alike, the ones it holds already included: a refusal for new addresses only would tell
 * whether an address is a contact.
 */
async function refuseAtContactCap(tx: Db, form: FormRow, now: Date): Promise<Plan> {
  const plan = await planInForce(tx, form.organizationId, now, { lock: true });
  const [org] = await tx.select({ used: organizations.contactCount }).from(organizations).where(eq(organizations.id, form.organizationId));
  if ((org?.used ?? 0) >= plan.contacts) throw new AppError('SERVICE_UNAVAILABLE', 'This form cannot take sign-ups right now; try again later');
  return plan;
}

/** An opt-out the form leaves as it is: suppressed, unsubscribed from everything, or out of this audience. */
async function optedOut(tx: Db, form: FormRow & { audienceId: string }, email: string): Promise<{ optedOut: boolean; contact: { id: string; name: string | null } | null; member: boolean }> {
  const [suppressed] = await tx
    .select({ id: suppressions.id })
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, form.organizationId), eq(suppressions.email, email)));
  const [contact] = await tx
    .select({ id: contacts.id, name: contacts.name, unsubscribed: contacts.unsubscribed })
    .from(contacts)
    .where(and(eq(contacts.organizationId, form.organizationId), eq(contacts.email, email)))
    .for('update');
  if (suppressed || contact?.unsubscribed) return { optedOut: true, contact: contact ?? null, member: false };
  if (!contact) return { optedOut: false, contact: null, member: false };
  const [membership] = await tx
    .select({ subscribed: audienceMemberships.subscribed })
    .from(audienceMemberships)
    .where(and(eq(audienceMemberships.audienceId, form.audienceId), eq(audienceMemberships.contactId, contact.id)));
  return { optedOut: membership ? !membership.subscribed : false, contact, member: membership !== undefined };
}

/**
 * The contact, made or completed: a new address becomes a contact with the values given; a
 * contact the organization holds only gets the names and values it has none of. Nobody proved the
 * address is theirs, so a form never overwrites what a contact already has.
 */
async function writeContact(
  tx: Db,
  form: FormRow,
  values: SubmittedValues,
  existing: { id: string; name: string | null } | null,
  now: Date,
  pending = false,
): Promise<{ id: string; created: boolean; name: string | null }> {
  const joined = [values.firstName, values.lastName].filter(Boolean).join(' ') || null;
  if (existing) {
    const [row] = await tx
      .update(contacts)
      .set({
        firstName: sql`coalesce(${contacts.firstName}, ${values.firstName})`,
        lastName: sql`coalesce(${contacts.lastName}, ${values.lastName})`,
        name: sql`coalesce(${contacts.name}, ${joined})`,
        properties: sql`${JSON.stringify(values.properties)}::jsonb || ${contacts.properties}`,
        updatedAt: now,
      })
      .where(eq(contacts.id, existing.id))
      .returning({ name: contacts.name });
    return { id: existing.id, created: false, name: row?.name ?? existing.name };
  }
  const id = newId();
  const [inserted] = await tx
    .insert(contacts)
    .values({
      id,
      organizationId: form.organizationId,
      email: values.email,
      name: joined,
      firstName: values.firstName,
      lastName: values.lastName,
      properties: values.properties,
      // Asked to confirm: pending from the start, so its first ledger entry says `pending`, never `subscribed`.
      unsubscribed: pending,
      pendingSince: pending ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: contacts.id });
  // Made by another submission of the same address a moment ago: completed as above.
  if (!inserted) {
    const [other] = await tx.select({ id: contacts.id, name: contacts.name }).from(contacts).where(and(eq(contacts.organizationId, form.organizationId), eq(contacts.email, values.email)));
    return writeContact(tx, form, values, other!, now, pending);
  }
  await tx.update(organizations).set({ contactCount: sql`${organizations.contactCount} + 1` }).where(eq(organizations.id, form.organizationId));
  return { id, created: true, name: joined };
}

/** Into the audience, subscribed (a member already subscribed stays as is), and into the form's topics it has made no choice about. */
async function join(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, form: FormRow & { audienceId: string }, contact: { id: string; name: string | null }, email: string, now: Date): Promise<void> {
  const [membership] = await tx
    .insert(audienceMemberships)
    .values({ id: newId(), audienceId: form.audienceId, contactId: contact.id, organizationId: form.organizationId, subscribed: true, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: audienceMemberships.id });
  if (membership) {
    await tx.update(audiences).set({ contactCount: sql`${audiences.contactCount} + 1` }).where(eq(audiences.id, form.audienceId));
    await recordEvent(tx, deps, { organizationId: form.organizationId, type: 'contact.created', data: { contactId: contact.id, audienceId: form.audienceId, email, name: contact.name, subscribed: true } });
    await raiseEvents(tx, deps, form, [addedToSegment(form.audienceId, [{ id: contact.id, email }])]);
  }
  if (form.topicIds.length === 0) return;
  const live = (await tx.select({ id: topics.id }).from(topics).where(and(eq(topics.organizationId, form.organizationId), inArray(topics.id, form.topicIds)))).map((row) => row.id);
  if (live.length === 0) return;
  // A topic the contact left stays left: only topics it never chose about are joined.
  const chosen = await tx
    .insert(contactTopics)
    .values(live.map((topicId) => ({ contactId: contact.id, topicId, organizationId: form.organizationId, subscribed: true, updatedAt: now })))
    .onConflictDoNothing()
    .returning({ topicId: contactTopics.topicId });
  const joined = await topicsJoinedFrom(tx, chosen.map((row) => row.topicId));
  await raiseEvents(tx, deps, form, joined.map((topicId) => topicSubscribed(topicId, [{ id: contact.id, email }])));
}

async function storeSubmission(tx: Db, form: FormRow, input: { contactId: string | null; values: SubmittedValues; status: FormSubmissionStatus; client: SubmissionClient; now: Date }): Promise<string> {
  const id = newId();
  await tx.insert(formSubmissions).values({
    id,
    formId: form.id,
    organizationId: form.organizationId,
    contactId: input.contactId,
    email: input.values.email,
    formVersion: form.consentVersion,
    status: input.status,
    values: { firstName: input.values.firstName, lastName: input.values.lastName, properties: input.values.properties },
    clientAddress: input.client.address,
    userAgent: input.client.userAgent,
    createdAt: input.now,
  });
  return id;
}

export interface SubmitOutcome {
  submissionId: string;
  status: FormSubmissionStatus;
}

/**
 * A person's submission of a form, once the edge has let it through (origin, honeypot, fill time,
 * rate limits, body). The steps, in order:
 *   1. checkValues        the values the form asks for, checked by type
 *   2. checkMailDomain    the address's domain receives mail (the service's own resolver)
 *   3. decideSubmission   single opt-in subscribes now; double opt-in waits for the confirmation
 *   4. in one transaction: declare the source (via form, the form and its consent text's version,
 *      the client) so the ledger's triggers record every change; the contact cap; then either the
 *      opt-in (unless the address opted out before) or the submission awaiting confirmation
 * The caller answers the person the same whatever the outcome, so nobody learns from it whether an
 * address was a contact, subscribed or not.
 */
export async function submitForm(deps: Deps, form: FormRow, email: string, raw: RawSubmission, client: SubmissionClient): Promise<SubmitOutcome> {
  const audienceId = form.audienceId;
  if (!audienceId) throw new AppError('SERVICE_UNAVAILABLE', 'This form cannot take sign-ups right now; try again later');
  const target = { ...form, audienceId };
  const values = await checkValues(deps.db, form, raw, email);
  await checkMailDomain(deps, email);
  const decision = decideSubmission(form);
  const source: ConsentSource = { via: 'form', formId: form.id, formVersion: form.consentVersion, clientAddress: client.address, userAgent: client.userAgent };
  const { outcome, confirmation } = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    await declareConsentSource(tx, source);
    const plan = await refuseAtContactCap(tx, form, now);
    const done = (status: FormSubmissionStatus, contactId: string | null, requested: RequestedConfirmation | null = null) =>
      storeSubmission(tx, form, { contactId, values, status, client, now }).then((submissionId) => ({ outcome: { submissionId, status }, confirmation: requested }));
    if (decision === 'await_confirmation') {
      const asked = await askToConfirm(tx, deps, target, values, { plan, source, now });
      if (asked.status === 'subscribe_now') {
        await join(tx, deps, target, asked.contact, email, now);
        await logConsentChanges(tx, deps);
        return done('subscribed', asked.contact.id);
      }
      await logConsentChanges(tx, deps);
      return done(asked.status, asked.contactId, asked.confirmation);
    }
    const standing = await optedOut(tx, target, email);
    if (standing.optedOut) return done('kept_opt_out', standing.contact?.id ?? null);
    const contact = await writeContact(tx, form, values, standing.contact, now);
    if (contact.created) await raiseEvents(tx, deps, form, [contactCreated([{ id: contact.id, email }])]);
    await join(tx, deps, target, contact, email, now);
    await logConsentChanges(tx, deps);
    return done('subscribed', contact.id);
  });
  // Woken once the confirmation email is committed, so the dispatch finds it.
  if (confirmation) wakeConfirmation(deps, confirmation);
  return outcome;
}

type Asked =
  | { status: 'awaiting_confirmation'; contactId: string; confirmation: RequestedConfirmation | null }
  | { status: 'kept_opt_out'; contactId: string | null; confirmation: null }
  | { status: 'subscribe_now'; contact: { id: string; name: string | null } };

/**
 * A double opt-in form's submission. A new address (or a contact still pending from an earlier
 * request) is made pending and mailed the confirmation from the form's verified domain, to join
 * the form's audience and topics once it confirms; a re-submission inside the re-send throttle
 * mails nothing more. A contact the organization holds already keeps its standing, since anyone
 * can type an address into a form: making it pending would take a subscriber off every list
 * until it confirms (and, never confirmed, leave it unsubscribed for good). So a
 * subscribed contact joins at once, as a single opt-in form would have it join, and one that
 * opted out (suppressed, unsubscribed from everything) is left out and mailed nothing.
 */
async function askToConfirm(
  tx: Db,
  deps: Deps,
  form: FormRow & { audienceId: string },
  values: SubmittedValues,
  context: { plan: Plan; source: ConsentSource; now: Date },
): Promise<Asked> {
  const [suppressed] = await tx
    .select({ id: suppressions.id })
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, form.organizationId), eq(suppressions.email, values.email)));
  const [existing] = await tx
    .select({ id: contacts.id, name: contacts.name, unsubscribed: contacts.unsubscribed, pendingSince: contacts.pendingSince })
    .from(contacts)
    .where(and(eq(contacts.organizationId, form.organizationId), eq(contacts.email, values.email)))
    .for('update');
  if (suppressed) return { status: 'kept_opt_out', contactId: existing?.id ?? null, confirmation: null };
  if (existing && existing.pendingSince === null) {
    if (existing.unsubscribed) return { status: 'kept_opt_out', contactId: existing.id, confirmation: null };
    return { status: 'subscribe_now', contact: await writeContact(tx, form, values, existing, context.now) };
  }
  const contact = await writeContact(tx, form, values, existing ?? null, context.now, true);
  try {
    const confirmation = await requestConfirmation(tx, deps, {
      principal: organizationPrincipal(form.organizationId, context.plan.id),
      contactId: contact.id,
      // The form's template, or the built-in text when it has none or its template no longer shows the link.
      sender: { from: await confirmationSender(tx, form), templateId: await confirmationTemplateOrBuiltIn(tx, form.organizationId, form.confirmationTemplateId) },
      join: { audienceIds: [form.audienceId], topics: form.topicIds.map((id) => ({ id, subscription: 'opt_in' as const })) },
      source: context.source,
    });
    if (confirmation.status === 'already_confirmed') return { status: 'subscribe_now', contact };
    return { status: 'awaiting_confirmation', contactId: contact.id, confirmation };
  } catch (error) {
    // Asked again too soon: the first mail stands, and the person is answered as for any submission.
    if (error instanceof AppError && error.appCode === 'RATE_LIMITED') return { status: 'awaiting_confirmation', contactId: contact.id, confirmation: null };
    throw error;
  }
}


/** `"Organization" <confirm@the form's domain>`: a domain the form must name, verified (the admit door checks it again). */
async function confirmationSender(tx: Db, form: FormRow): Promise<string> {
  if (!form.domainId) throw new AppError('SERVICE_UNAVAILABLE', 'This form cannot take sign-ups right now; try again later');
  const [row] = await tx
    .select({ domain: domains.name, organization: organizations.name })
    .from(domains)
    .innerJoin(organizations, eq(organizations.id, domains.organizationId))
    .where(and(eq(domains.id, form.domainId), eq(domains.organizationId, form.organizationId)));
  if (!row) throw new AppError('SERVICE_UNAVAILABLE', 'This form cannot take sign-ups right now; try again later');
  const name = row.organization.replace(/["\\\r\n]/g, '').trim();
  return name ? `"${name}" <confirm@${row.domain}>` : `confirm@${row.domain}`;
}
