import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactProperties, domains, topics } from '@/db/schema';
import { AppError, notFound, validationError } from '../../errors';
import { ownAudience } from '../audiences/crud';
import { checkConfirmationTemplate } from '../double-opt-in/template';
import { refuseRuleSegment } from '../segments/crud';
import type { Principal } from '../shared/principal';
import type { TwoNames } from '../shared/two-names';

/** The audience a form fills, under our name or Resend's (docs/resend.md), as broadcasts take it. */
export const AUDIENCE_NAMES: TwoNames = { name: 'audience_id', alias: 'segment_id' };

/** Forms an organization may have: a flat bound that keeps the list readable (as topics and properties have). */
export const FORM_LIMIT = 50;
export const FORM_NAME_MAX = 100;
export const CONSENT_TEXT_MAX = 5_000;
export const FORM_URL_MAX = 2_048;
export const ALLOWED_ORIGINS_MAX = 20;
/** A form asks for few things: a longer one is no longer a sign-up form. */
export const FORM_PROPERTIES_MAX = 10;
export const FORM_TOPICS_MAX = 20;

type Org = Pick<Principal, 'organizationId'>;

/** The audience a form fills: the organization's, and a list (a segment defined by rules takes no contacts). */
export async function checkTarget(db: Db, principal: Org, audienceId: string): Promise<void> {
  const audience = await ownAudience(db, principal, audienceId);
  refuseRuleSegment(audience);
}

/** Each topic the organization's (404 naming the first that is not), none twice (400). */
export async function checkTopics(db: Db, principal: Org, ids: string[]): Promise<string[]> {
  const wanted = ids.map((id) => id.toLowerCase());
  const twice = wanted.find((id, index) => wanted.indexOf(id) !== index);
  if (twice) throw validationError(`topic_ids: the topic ${twice} is given twice`);
  if (wanted.length === 0) return [];
  const found = new Set(
    (await db.select({ id: topics.id }).from(topics).where(and(eq(topics.organizationId, principal.organizationId), inArray(topics.id, wanted)))).map((row) => row.id),
  );
  const missing = wanted.find((id) => !found.has(id));
  if (missing) throw notFound(`Topic ${missing}`);
  return wanted;
}

/** Each key one of the organization's contact properties, none twice. */
export async function checkPropertyKeys(db: Db, principal: Org, keys: string[]): Promise<string[]> {
  const twice = keys.find((key, index) => keys.indexOf(key) !== index);
  if (twice) throw validationError(`fields.properties: "${twice}" is given twice`);
  if (keys.length === 0) return [];
  const found = new Set(
    (await db.select({ key: contactProperties.key }).from(contactProperties).where(and(eq(contactProperties.organizationId, principal.organizationId), inArray(contactProperties.key, keys)))).map(
      (row) => row.key,
    ),
  );
  const missing = keys.find((key) => !found.has(key));
  if (missing) throw validationError(`fields.properties: no contact property has the key "${missing}"; create it first (POST /contact-properties)`);
  return keys;
}

/**
 * Double opt-in sends a confirmation mail, which needs a verified domain of the organization to come
 * from: a form cannot turn it on without one. Called with the form as it will be after the change.
 */
export async function checkDoubleOptIn(db: Db, principal: Org, form: { doubleOptIn: boolean; domainId: string | null }): Promise<void> {
  if (form.domainId !== null) {
    const [domain] = await db
      .select({ name: domains.name, status: domains.status })
      .from(domains)
      .where(and(eq(domains.id, form.domainId), eq(domains.organizationId, principal.organizationId)));
    if (!domain) throw notFound('Domain');
    if (form.doubleOptIn && domain.status !== 'verified') {
      throw new AppError('DOMAIN_NOT_VERIFIED', `The domain ${domain.name} is ${domain.status.replace('_', ' ')}: double opt-in sends its confirmation mail from a verified domain; verify it first`);
    }
  }
  if (form.doubleOptIn && form.domainId === null) {
    throw validationError('domain_id: a form with double opt-in needs domain_id, a verified domain of yours to send the confirmation mail from');
  }
}

/**
 * The template a form's confirmation mail is written with: the rule of `POST /contacts`'s
 * `confirmation.template_id` (the organization's, published, showing `{{ confirmation_url }}`),
 * the error naming the form's field. Checked whenever it is chosen, with double opt-in on or not.
 */
export async function checkFormConfirmationTemplate(db: Db, principal: Org, templateId: string | null): Promise<string | null> {
  if (templateId === null) return null;
  const id = templateId.toLowerCase();
  await checkConfirmationTemplate(db, principal.organizationId, id, 'confirmation_template_id');
  return id;
}

/** An absolute http(s) URL, as given. */
export function checkUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw validationError(`${field}: must be an absolute URL (https://…)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw validationError(`${field}: must be an http or https URL`);
  return value;
}

/** Each origin exactly `scheme://host[:port]` (what a browser sends as Origin), lowercased, none twice. */
export function checkOrigins(values: string[]): string[] {
  const origins = values.map((value, index) => {
    const field = `allowed_origins[${index}]`;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw validationError(`${field}: must be an origin such as https://www.example.com`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw validationError(`${field}: must be an http or https origin`);
    if (url.origin !== value.replace(/\/$/, '').toLowerCase()) throw validationError(`${field}: must be an origin alone (scheme, host and port, no path): ${url.origin}`);
    return url.origin;
  });
  const twice = origins.find((origin, index) => origins.indexOf(origin) !== index);
  if (twice) throw validationError(`allowed_origins: ${twice} is given twice`);
  return origins;
}
