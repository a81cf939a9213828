import type { Deps } from '../../../deps';
import { AppError, forbidden, notFound } from '../../../errors';
import { normalizeAddress, parseMailbox, type Mailbox } from '../../shared/addresses';
import type { Principal } from '../../shared/principal';
import { isSandboxName } from '../../domains/sandbox';
import { isDeliverableDomain } from './recipient-domains';
import { loadSendContext, type SendContext } from './context';
import { impersonatedBrand } from './sender-brands';

export interface SendPermit {
  sender: Mailbox;
  /** The organization's verified domain; null when sending from the shared sandbox domain. */
  domain: { id: string; name: string; openTracking: boolean; clickTracking: boolean } | null;
  /** Recipients to send to, and the ones on the suppression list (recorded, not sent). */
  deliverable: string[];
  suppressed: string[];
}

/** The refusal of each account state that stops sending, with its code. */
export const ACCOUNT_REFUSALS = {
  restricted: ['ACCOUNT_RESTRICTED', 'This account is on hold; contact support'],
  suspended: ['SENDING_SUSPENDED', 'Sending is suspended for this account'],
  paused: ['SERVICE_PAUSED', 'Sending is paused for this account'],
} as const;

/**
 * Until the owner's address is confirmed nothing leaves on the account's behalf: anyone can sign
 * up with someone else's address (docs/security.md, "Abuse: unconfirmed owners").
 */
export const UNCONFIRMED_OWNER_REFUSAL = [
  'ACCOUNT_RESTRICTED',
  "Live sending starts once the account owner's email address is confirmed: open the link we mailed to it (the dashboard can send a new one). Test keys work meanwhile",
] as const;

/** Sending stops when the owner asks to delete the organization, and starts again if they cancel (docs/organization-settings.md). */
export const DELETION_PENDING_REFUSAL = [
  'ACCOUNT_RESTRICTED',
  'This organization is being deleted and sends nothing; its owner can cancel the deletion in the dashboard’s settings until it is erased',
] as const;

/** Restricted because a renewal stayed unpaid past its grace period, not by the operator: the customer can lift it themselves (docs/billing.md). */
export const UNPAID_REFUSAL = [
  'ACCOUNT_RESTRICTED',
  'Sending is restricted because a renewal is unpaid; it resumes as soon as the payment is confirmed (the dashboard’s billing page)',
] as const;

/**
 * Why an account may not send live mail, or null: its status (on hold, suspended, paused) first,
 * then an owner not confirmed yet. Every live send asks this, the broadcast's start included.
 */
export function accountRefusal(organization: { status: string; ownerConfirmed: boolean; deletionPending?: boolean; unpaid?: boolean }): AppError | null {
  if (organization.deletionPending) return new AppError(DELETION_PENDING_REFUSAL[0], DELETION_PENDING_REFUSAL[1]);
  if (organization.status === 'restricted' && organization.unpaid) return new AppError(UNPAID_REFUSAL[0], UNPAID_REFUSAL[1]);
  const refusal = ACCOUNT_REFUSALS[organization.status as keyof typeof ACCOUNT_REFUSALS] ?? (organization.ownerConfirmed ? null : UNCONFIRMED_OWNER_REFUSAL);
  return refusal ? new AppError(refusal[0], refusal[1]) : null;
}

/** Whether the organization's suppression list (as read with the context) holds this recipient. */
export const isSuppressedIn = (context: Pick<SendContext, 'suppressed'>, mailbox: Mailbox): boolean => context.suppressed.has(mailbox.address.toLowerCase());

interface SendAttempt {
  from: string;
  recipients: string[];
}

/**
 * Every refusal before an email is queued, in the spec's order, but the limits (within-limits.ts,
 * which reads the same context). Nothing is stored when one applies.
 */
export async function permitSend(deps: Pick<Deps, 'db' | 'config' | 'clock' | 'encryptionKey'>, principal: Principal, input: SendAttempt): Promise<{ permit: SendPermit; context: SendContext }> {
  const sender = parseMailbox(input.from);
  const context = await loadSendContext(deps, principal.organizationId, [sender.domain], input.recipients.map(normalizeAddress));
  return { permit: await permitWithin(deps, principal, context, input), context };
}

/**
 * The same checks against a context already read for a whole batch: one database round trip for
 * a hundred emails. Only the recipient-domain check may wait (on DNS, cached per domain).
 */
export async function permitWithin(deps: Pick<Deps, 'db' | 'config' | 'clock'>, principal: Principal, context: SendContext, input: SendAttempt): Promise<SendPermit> {
  const sender = parseMailbox(input.from);
  const sandbox = isSandboxName(deps.config, sender.domain);
  const { organization } = context;
  if (!organization) throw notFound('Organization');
  const domain = sandbox ? undefined : context.domains.get(sender.domain);

  if (principal.domainId && domain?.id !== principal.domainId) {
    throw forbidden(`This key may only send from its own domain, not from ${sender.domain}`);
  }
  const refusal = principal.mode === 'live' ? accountRefusal(organization) : null;
  if (refusal) throw refusal;
  const recipients = input.recipients.map((recipient) => ({ given: recipient, mailbox: parseMailbox(recipient) }));
  // The sandbox (docs/domains.md): a test email never leaves, so a test key may address anyone;
  // a live one reaches only the owner's own (confirmed) address, so nobody relays through it.
  if (sandbox) {
    const owner = organization.ownerEmail.toLowerCase();
    const others = recipients.filter((recipient) => recipient.mailbox.address.toLowerCase() !== owner);
    if (principal.mode === 'live' && others.length > 0) throw forbidden(`The sandbox domain sends live mail only to the account owner (${owner}); use a test key, or verify a domain to send to others`);
  } else if (!domain || domain.status !== 'verified') {
    throw new AppError('DOMAIN_NOT_VERIFIED', `${sender.domain} is not a verified domain of this account; register and verify it first`);
  }
  const brand = impersonatedBrand(sender.name, sender.domain);
  if (brand) throw new AppError('SENDER_NOT_PERMITTED', `The display name claims "${brand}", which ${sender.domain} has no relation to`);

  const isSuppressed = (recipient: { mailbox: Mailbox }) => isSuppressedIn(context, recipient.mailbox);
  const deliverable = recipients.filter((recipient) => !isSuppressed(recipient));
  if (deliverable.length === 0) throw new AppError('ALL_SUPPRESSED', 'Every recipient is on the suppression list');
  // A test email is never delivered, so its recipients' domains are not looked up.
  if (principal.mode === 'live') {
    const domainsOf = [...new Set(deliverable.map((recipient) => recipient.mailbox.domain))];
    const answers = await Promise.all(domainsOf.map((name) => isDeliverableDomain(name, deps.config.dnsServers, deps.clock.now().getTime())));
    if (!answers.some(Boolean)) throw new AppError('RECIPIENT_DOMAIN_UNDELIVERABLE', `No recipient domain accepts mail (${domainsOf.join(', ')})`);
  }
  return {
    sender,
    domain: domain ? { id: domain.id, name: domain.name, openTracking: domain.openTracking, clickTracking: domain.clickTracking } : null,
    deliverable: deliverable.map((recipient) => recipient.given),
    suppressed: recipients.filter(isSuppressed).map((recipient) => recipient.given),
  };
}
