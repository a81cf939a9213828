import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { formConsentTexts, forms } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { newId } from '../../ids';
import { byPrincipal, recordAudit } from '../audit/record';
import { fetchPage, type Page } from '../shared/pagination';
import { eitherName } from '../shared/two-names';
import { ownRow, refuseAtLimit } from '../shared/own-rows';
import type { Principal } from '../shared/principal';
import { AUDIENCE_NAMES, checkDoubleOptIn, checkFormConfirmationTemplate, checkOrigins, checkPropertyKeys, checkTarget, checkTopics, checkUrl, FORM_LIMIT } from './rules';
import { formEndpoint, formSnippet } from './snippet';

export type FormRow = typeof forms.$inferSelect;

export interface FormInput {
  name: string;
  audienceId: string;
  topicIds?: string[];
  fields?: { firstName?: boolean; lastName?: boolean; properties?: string[] };
  consentText: string;
  doubleOptIn?: boolean;
  domainId?: string | null;
  /** The organization's template for the confirmation mail; null or absent: the built-in text. */
  confirmationTemplateId?: string | null;
  successUrl?: string | null;
  errorUrl?: string | null;
  allowedOrigins: string[];
}

/** A change; the audience under our name or Resend's (`segmentId`), checked once the form is found to be the caller's. */
export type FormChanges = Partial<FormInput> & { segmentId?: string };

export interface FormView {
  id: string;
  name: string;
  /** The public key of the endpoint, `POST /f/{formKey}`. */
  formKey: string;
  endpoint: string;
  audienceId: string | null;
  topicIds: string[];
  fields: { email: true; firstName: boolean; lastName: boolean; properties: string[] };
  consentText: string;
  consentVersion: number;
  doubleOptIn: boolean;
  domainId: string | null;
  confirmationTemplateId: string | null;
  successUrl: string | null;
  errorUrl: string | null;
  allowedOrigins: string[];
  /** The HTML to paste into a page. */
  snippet: string;
  createdAt: string;
  updatedAt: string;
}

/** 128 random bits: the endpoint is public, so its key must not be guessable (the id is time-ordered). */
const newFormKey = () => `frm_${randomBytes(16).toString('base64url')}`;

const view = (appUrl: string, row: FormRow, consentText: string): FormView => ({
  id: row.id,
  name: row.name,
  formKey: row.publicKey,
  endpoint: formEndpoint(appUrl, row.publicKey),
  audienceId: row.audienceId,
  topicIds: row.topicIds,
  fields: { email: true, firstName: row.askFirstName, lastName: row.askLastName, properties: row.propertyKeys },
  consentText,
  consentVersion: row.consentVersion,
  doubleOptIn: row.doubleOptIn,
  domainId: row.domainId,
  confirmationTemplateId: row.confirmationTemplateId,
  successUrl: row.successUrl,
  errorUrl: row.errorUrl,
  allowedOrigins: row.allowedOrigins,
  snippet: formSnippet(appUrl, { ...row, consentText }),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The organization's form, or 404 (another organization's is not found either). */
export const ownForm = (db: Db, principal: Pick<Principal, 'organizationId'>, id: string, lock = false): Promise<FormRow> => ownRow(db, forms, 'Form', principal, id, lock);

/** The text of one version of a form's consent text (every version is kept). */
export async function consentTextOf(db: Db, formId: string, version: number): Promise<string> {
  const [row] = await db
    .select({ text: formConsentTexts.text })
    .from(formConsentTexts)
    .where(and(eq(formConsentTexts.formId, formId), eq(formConsentTexts.version, version)));
  if (!row) throw notFound('Consent text');
  return row.text;
}

const withText = async (db: Db, appUrl: string, row: FormRow) => view(appUrl, row, await consentTextOf(db, row.id, row.consentVersion));

export async function createForm(deps: Pick<Deps, 'db' | 'clock' | 'config'>, principal: Principal, input: FormInput): Promise<FormView> {
  return deps.db.transaction(async (tx) => {
    await refuseAtLimit(tx, forms, principal, { most: FORM_LIMIT, plural: 'forms' });
    await checkTarget(tx, principal, input.audienceId);
    const topicIds = await checkTopics(tx, principal, input.topicIds ?? []);
    const propertyKeys = await checkPropertyKeys(tx, principal, input.fields?.properties ?? []);
    const doubleOptIn = input.doubleOptIn ?? false;
    const domainId = input.domainId ?? null;
    await checkDoubleOptIn(tx, principal, { doubleOptIn, domainId });
    const confirmationTemplateId = await checkFormConfirmationTemplate(tx, principal, input.confirmationTemplateId ?? null);
    const now = deps.clock.now();
    const id = newId();
    const [row] = await tx
      .insert(forms)
      .values({
        id,
        organizationId: principal.organizationId,
        publicKey: newFormKey(),
        name: input.name,
        audienceId: input.audienceId,
        topicIds,
        askFirstName: input.fields?.firstName ?? false,
        askLastName: input.fields?.lastName ?? false,
        propertyKeys,
        consentVersion: 1,
        doubleOptIn,
        domainId,
        confirmationTemplateId,
        successUrl: input.successUrl ? checkUrl(input.successUrl, 'success_url') : null,
        errorUrl: input.errorUrl ? checkUrl(input.errorUrl, 'error_url') : null,
        allowedOrigins: checkOrigins(input.allowedOrigins),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.insert(formConsentTexts).values({ formId: id, organizationId: principal.organizationId, version: 1, text: input.consentText, createdAt: now });
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'form.created',
      target: { type: 'form', id, label: input.name },
      details: { audienceId: input.audienceId, doubleOptIn, consentVersion: 1, confirmationTemplateId },
    });
    return view(deps.config.appUrl, row!, input.consentText);
  });
}

/** Newest first, in pages, as the other lists. */
export async function listForms(deps: Pick<Deps, 'db' | 'config'>, principal: Principal, page: { limit: number; cursor?: string }): Promise<Page<FormView>> {
  const result = await fetchPage(forms.id, page, ({ where, orderBy, limit }) =>
    deps.db
      .select({ form: forms, text: formConsentTexts.text })
      .from(forms)
      .innerJoin(formConsentTexts, and(eq(formConsentTexts.formId, forms.id), eq(formConsentTexts.version, forms.consentVersion)))
      .where(and(eq(forms.organizationId, principal.organizationId), where))
      .orderBy(orderBy)
      .limit(limit)
      .then((rows) => rows.map((row) => ({ id: row.form.id, row })),
  ));
  return { data: result.data.map(({ row }) => view(deps.config.appUrl, row.form, row.text)), nextCursor: result.nextCursor };
}

export async function getForm(deps: Pick<Deps, 'db' | 'config'>, principal: Principal, id: string): Promise<FormView> {
  return withText(deps.db, deps.config.appUrl, await ownForm(deps.db, principal, id));
}

/**
 * Changes what is given. A consent text other than the one shown now becomes a new version (the
 * old ones are kept, so every ledger entry still resolves to the words its person saw).
 */
export async function updateForm(deps: Pick<Deps, 'db' | 'clock' | 'config'>, principal: Principal, id: string, input: FormChanges): Promise<FormView> {
  return deps.db.transaction(async (tx) => {
    const before = await ownForm(tx, principal, id, true);
    const audienceId = eitherName(AUDIENCE_NAMES, input.audienceId, input.segmentId);
    const beforeText = await consentTextOf(tx, id, before.consentVersion);
    const next: Partial<FormRow> = {};
    const changed: string[] = [];
    const set = <K extends keyof FormRow>(key: K, value: FormRow[K], wire: string) => {
      if (JSON.stringify(value) === JSON.stringify(before[key])) return;
      next[key] = value;
      changed.push(wire);
    };
    if (input.name !== undefined) set('name', input.name, 'name');
    if (audienceId !== undefined) {
      await checkTarget(tx, principal, audienceId);
      set('audienceId', audienceId, 'audience_id');
    }
    if (input.topicIds !== undefined) set('topicIds', await checkTopics(tx, principal, input.topicIds), 'topic_ids');
    if (input.fields?.firstName !== undefined) set('askFirstName', input.fields.firstName, 'fields.first_name');
    if (input.fields?.lastName !== undefined) set('askLastName', input.fields.lastName, 'fields.last_name');
    if (input.fields?.properties !== undefined) set('propertyKeys', await checkPropertyKeys(tx, principal, input.fields.properties), 'fields.properties');
    if (input.doubleOptIn !== undefined) set('doubleOptIn', input.doubleOptIn, 'double_opt_in');
    if (input.domainId !== undefined) set('domainId', input.domainId, 'domain_id');
    if (input.doubleOptIn !== undefined || input.domainId !== undefined) {
      await checkDoubleOptIn(tx, principal, { doubleOptIn: next.doubleOptIn ?? before.doubleOptIn, domainId: next.domainId !== undefined ? next.domainId : before.domainId });
    }
    if (input.confirmationTemplateId !== undefined) set('confirmationTemplateId', await checkFormConfirmationTemplate(tx, principal, input.confirmationTemplateId), 'confirmation_template_id');
    if (input.successUrl !== undefined) set('successUrl', input.successUrl === null ? null : checkUrl(input.successUrl, 'success_url'), 'success_url');
    if (input.errorUrl !== undefined) set('errorUrl', input.errorUrl === null ? null : checkUrl(input.errorUrl, 'error_url'), 'error_url');
    if (input.allowedOrigins !== undefined) set('allowedOrigins', checkOrigins(input.allowedOrigins), 'allowed_origins');
    const now = deps.clock.now();
    let text = beforeText;
    if (input.consentText !== undefined && input.consentText !== beforeText) {
      text = input.consentText;
      next.consentVersion = before.consentVersion + 1;
      changed.push('consent_text');
      await tx.insert(formConsentTexts).values({ formId: id, organizationId: principal.organizationId, version: next.consentVersion, text, createdAt: now });
    }
    if (changed.length === 0) return view(deps.config.appUrl, before, beforeText);
    const [row] = await tx
      .update(forms)
      .set({ ...next, updatedAt: now })
      .where(eq(forms.id, id))
      .returning();
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'form.updated',
      target: { type: 'form', id, label: row!.name },
      details: { fields: changed, consentVersion: row!.consentVersion, doubleOptIn: row!.doubleOptIn },
    });
    return view(deps.config.appUrl, row!, text);
  });
}

/** The form and its submissions go; its consent texts stay, since ledger entries name them. */
export async function deleteForm(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await ownForm(tx, principal, id, true);
    await tx.delete(forms).where(eq(forms.id, row.id));
    await recordAudit(tx, deps, { organizationId: principal.organizationId, by: byPrincipal(principal), action: 'form.deleted', target: { type: 'form', id: row.id, label: row.name } });
  });
}
