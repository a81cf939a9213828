import { and, eq } from 'drizzle-orm';
import { domains, organizations } from '@/db/schema';
import type { Deps } from '../deps';
import { AppError, forbidden, notFound } from '../errors';
import { parseMailbox, type Mailbox } from './addresses';
import type { Principal } from './principal';
import { isDeliverableDomain } from './recipient-domains';
import { impersonatedBrand } from './sender-brands';
import { suppressedAmong } from './suppressions';

export interface SendPermit {
  sender: Mailbox;
  /** The organization's verified domain; null when sending from the shared sandbox domain. */
  domain: { id: string; name: string; openTracking: boolean; clickTracking: boolean } | null;
  /** Recipients to send to, and the ones on the suppression list (recorded, not sent). */
  deliverable: string[];
  suppressed: string[];
}

const ACCOUNT_REFUSALS = {
  restricted: ['ACCOUNT_RESTRICTED', 'This account is on hold; contact support'],
  suspended: ['SENDING_SUSPENDED', 'Sending is suspended for this account'],
  paused: ['SERVICE_PAUSED', 'Sending is paused for this account'],
} as const;

/**
 * Every refusal that happens before an email is queued, in the spec's order. Nothing is stored
 * when one applies. Limits (daily, monthly, list-send review) hook in at `checkSendingLimits`.
 */
export async function permitSend(deps: Pick<Deps, 'db' | 'config' | 'clock'>, principal: Principal, input: { from: string; recipients: string[] }): Promise<SendPermit> {
  const sender = parseMailbox(input.from);
  const sandbox = deps.config.sandboxDomain !== undefined && sender.domain === deps.config.sandboxDomain;
  const [organization] = await deps.db.select().from(organizations).where(eq(organizations.id, principal.organizationId));
  if (!organization) throw notFound('Organization');
  const [domain] = sandbox
    ? []
    : await deps.db
        .select()
        .from(domains)
        .where(and(eq(domains.organizationId, principal.organizationId), eq(domains.name, sender.domain)));

  if (principal.domainId && domain?.id !== principal.domainId) {
    throw forbidden(`This key may only send from its own domain, not from ${sender.domain}`);
  }
  const refusal = ACCOUNT_REFUSALS[organization.status as keyof typeof ACCOUNT_REFUSALS];
  if (refusal && principal.mode === 'live') throw new AppError(refusal[0], refusal[1]);
  if (sandbox) {
    const owner = organization.ownerEmail.toLowerCase();
    const others = input.recipients.filter((recipient) => parseMailbox(recipient).address.toLowerCase() !== owner);
    if (others.length > 0) throw forbidden(`The sandbox domain sends only to the account owner (${owner}); verify a domain to send to others`);
  } else if (!domain || domain.status !== 'verified') {
    throw new AppError('DOMAIN_NOT_VERIFIED', `${sender.domain} is not a verified domain of this account; register and verify it first`);
  }
  const brand = impersonatedBrand(sender.name, sender.domain);
  if (brand) throw new AppError('SENDER_NOT_PERMITTED', `The display name claims "${brand}", which ${sender.domain} has no relation to`);

  const suppressedSet = await suppressedAmong(deps.db, principal.organizationId, input.recipients);
  const deliverable = input.recipients.filter((recipient) => !suppressedSet.has(recipient));
  if (deliverable.length === 0) throw new AppError('ALL_SUPPRESSED', 'Every recipient is on the suppression list');
  // A test email is never delivered, so its recipients' domains are not looked up.
  if (principal.mode === 'live') {
    const domainsOf = [...new Set(deliverable.map((recipient) => parseMailbox(recipient).domain))];
    const answers = await Promise.all(domainsOf.map((name) => isDeliverableDomain(name, deps.config.dnsServers, deps.clock.now().getTime())));
    if (!answers.some(Boolean)) throw new AppError('RECIPIENT_DOMAIN_UNDELIVERABLE', `No recipient domain accepts mail (${domainsOf.join(', ')})`);
  }
  await checkSendingLimits(deps, principal, deliverable.length);
  return {
    sender,
    domain: domain ? { id: domain.id, name: domain.name, openTracking: domain.openTracking, clickTracking: domain.clickTracking } : null,
    deliverable,
    suppressed: input.recipients.filter((recipient) => suppressedSet.has(recipient)),
  };
}

/**
 * The daily recipient ceiling, the monthly quota and list-send review hook in here (the plans
 * work fills them in): they refuse before queueing like every check above.
 */
export async function checkSendingLimits(_deps: Pick<Deps, 'db' | 'clock'>, _principal: Principal, _recipients: number): Promise<void> {}
