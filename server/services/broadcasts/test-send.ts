import { and, eq } from 'drizzle-orm';
import { domains, organizations, templates } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, forbidden, validationError } from '../../errors';
import { accountRefusal, permitSend } from '../emails/accept/checks';
import { draftEmail } from '../emails/accept/draft';
import type { EmailInput } from '../emails/accept/input';
import { admit, type AdmitItem } from '../emails/accept/admit';
import { normalizeAddress, parseMailbox } from '../shared/addresses';
import type { Principal } from '../shared/principal';
import { renderForContacts, SAMPLE_NAME, type BroadcastContent } from './content';
import { sampleUnsubscribeUrl } from '../unsubscribe/tokens';
import { TEST_RECIPIENTS_MAX } from './limits';
import { ownBroadcast } from './own';
import type { BroadcastRow } from './view';

/** What the broadcast says now: its own content, or its template's (a subject of its own overriding the template's). */
export async function contentOf(deps: Pick<Deps, 'db'>, row: BroadcastRow): Promise<BroadcastContent> {
  if (!row.templateId) return { subject: row.subject ?? '', html: row.html, text: row.text, previewText: row.previewText };
  const [template] = await deps.db.select().from(templates).where(eq(templates.id, row.templateId));
  if (!template) throw validationError('template_id: the template was deleted; choose another one or write the content');
  return { subject: row.subject ?? template.subject, html: template.html, text: template.text, previewText: row.previewText };
}

/**
 * Whom a test copy may go to: the account owner, or an address on one of the organization's
 * verified domains. A test copy is for the people who write the broadcast, never a way round
 * the audience.
 */
async function checkTestRecipients(deps: Pick<Deps, 'db'>, principal: Principal, to: string[]): Promise<void> {
  const [organization] = await deps.db
    .select({ ownerEmail: organizations.ownerEmail, status: organizations.status, ownerConfirmedAt: organizations.ownerConfirmedAt, deletionRequestedAt: organizations.deletionRequestedAt, statusCause: organizations.statusCause })
    .from(organizations)
    .where(eq(organizations.id, principal.organizationId));
  // What the account may do comes first, as on every send: no choice of recipient would help it.
  const account = organization && principal.mode === 'live' ? accountRefusal({ status: organization.status, ownerConfirmed: organization.ownerConfirmedAt !== null, deletionPending: organization.deletionRequestedAt !== null, unpaid: organization.statusCause === 'non_payment' }) : null;
  if (account) throw account;
  const ownerEmail = organization?.ownerEmail ?? '';
  const verified = new Set(
    (
      await deps.db
        .select({ name: domains.name })
        .from(domains)
        .where(and(eq(domains.organizationId, principal.organizationId), eq(domains.status, 'verified')))
    ).map((row) => row.name),
  );
  for (const address of to) {
    const { domain } = parseMailbox(address);
    const onVerified = [...verified].some((name) => domain === name || domain.endsWith(`.${name}`));
    if (normalizeAddress(address) !== ownerEmail.toLowerCase() && !onVerified) {
      throw forbidden(`Test copies go to the account owner's address or to addresses on your verified domains, not to ${address}`);
    }
  }
}

/**
 * `POST /broadcasts/{id}/test`: the broadcast as it is now, rendered with sample values for each
 * address, subject marked [Test]. Every refusal of a send applies; the copies count against the
 * daily and monthly limits, not against the list-send allowance, admitted through the one door
 * (the recipients' rule above is the test send's own check). Works in every status and plan.
 */
export async function sendTestCopies(deps: Deps, principal: Principal, id: string, to: string[]): Promise<{ data: Array<{ id: string }> }> {
  if (to.length === 0 || to.length > TEST_RECIPIENTS_MAX) throw validationError(`to: give 1 to ${TEST_RECIPIENTS_MAX} addresses`);
  const row = await ownBroadcast(deps.db, principal, id);
  const content = await contentOf(deps, row);
  await checkTestRecipients(deps, principal, to);
  const { permit, context } = await permitSend(deps, principal, { from: row.from, recipients: to });
  const now = deps.clock.now();
  // Parsed afresh, not cached by the broadcast's version: a template it uses may have changed since.
  const unsubscribeUrl = sampleUnsubscribeUrl(deps.config.appUrl, 'test');
  const copies = await renderForContacts(
    deps,
    null,
    content,
    permit.deliverable.map((address) => ({ email: normalizeAddress(address), name: SAMPLE_NAME, unsubscribeUrl })),
  );
  const refused = copies.find((copy) => copy instanceof AppError);
  if (refused) throw refused;
  const items = permit.deliverable.map((address, index): AdmitItem => {
    const rendered = copies[index] as Exclude<(typeof copies)[number], AppError>;
    const input: EmailInput = {
      from: row.from,
      to: [address],
      cc: [],
      bcc: [],
      replyTo: row.replyTo,
      subject: `[Test] ${rendered.subject}`.slice(0, 998),
      html: rendered.html ?? undefined,
      text: rendered.text ?? undefined,
      headers: {},
      tags: [{ name: 'broadcast_test', value: row.id }],
      tracking: {},
    };
    return { drafted: { draft: draftEmail(principal, input, { ...permit, deliverable: [address], suppressed: [] }, { now, scheduledAt: null }), recipients: 1, listShaped: false } };
  });
  const { outcomes } = await admit(deps, { via: 'broadcast_test', principal, kind: 'broadcast', items, context });
  const data = outcomes.flatMap((outcome) => (outcome && 'id' in outcome ? [{ id: outcome.id }] : []));
  // Copies past a limit are not sent; when none fits, the limit's refusal is the answer.
  const limited = outcomes.find((outcome) => outcome !== null && 'error' in outcome);
  if (data.length === 0 && limited && 'error' in limited) throw limited.error;
  return { data };
}
