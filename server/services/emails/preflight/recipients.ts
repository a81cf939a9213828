import { and, eq, inArray, or } from 'drizzle-orm';
import { suppressions } from '@/db/schema';
import type { Deps } from '../../../deps';
import { parseMailbox } from '../../shared/addresses';
import type { Principal } from '../../shared/principal';
import { suppressionHash } from '../../suppressions/address-hash';
import { isSuppressedIn } from '../accept/checks';
import type { SendContext } from '../accept/context';
import type { EmailInput } from '../accept/input';
import { isDeliverableDomain } from '../accept/recipient-domains';
import type { RecipientVerdict } from './verdict';

/**
 * Each recipient as `POST /emails` treats it: suppressed by the list the send context read (with
 * the list's entry), else sent. In live mode a recipient whose domain takes no mail (no MX nor
 * address record) is `undeliverable`: the send goes ahead while another recipient's domain takes
 * mail, and that one fails. Test mode looks up no domain, as a test send does not.
 */
export async function recipientVerdicts(deps: Pick<Deps, 'db' | 'config' | 'clock' | 'encryptionKey'>, principal: Principal, input: EmailInput, context: SendContext): Promise<RecipientVerdict[]> {
  const fields = [...input.to.map((email) => ({ email, field: 'to' as const })), ...input.cc.map((email) => ({ email, field: 'cc' as const })), ...input.bcc.map((email) => ({ email, field: 'bcc' as const }))];
  const recipients = fields.map((recipient) => ({ ...recipient, mailbox: parseMailbox(recipient.email) }));
  const suppressed = recipients.filter((recipient) => isSuppressedIn(context, recipient.mailbox)).map((recipient) => recipient.mailbox.address.toLowerCase());
  const entries = await suppressionEntries(deps, principal.organizationId, suppressed);
  const deliverable = new Map<string, boolean>();
  if (principal.mode === 'live') {
    const domains = [...new Set(recipients.filter((recipient) => !isSuppressedIn(context, recipient.mailbox)).map((recipient) => recipient.mailbox.domain))];
    const now = deps.clock.now().getTime();
    await Promise.all(domains.map(async (domain) => deliverable.set(domain, await isDeliverableDomain(domain, deps.config.dnsServers, now))));
  }
  return recipients.map(({ email, field, mailbox }) => {
    if (isSuppressedIn(context, mailbox)) return { email, field, outcome: 'suppressed', suppression: entries.get(mailbox.address.toLowerCase()) ?? null };
    return { email, field, outcome: deliverable.get(mailbox.domain) === false ? 'undeliverable' : 'send', suppression: null };
  });
}

/** The list's entries of these addresses: by address, or by hash for an address erased on request (the entry then holds no address). */
async function suppressionEntries(deps: Pick<Deps, 'db' | 'encryptionKey'>, organizationId: string, addresses: string[]): Promise<Map<string, NonNullable<RecipientVerdict['suppression']>>> {
  if (addresses.length === 0) return new Map();
  const unique = [...new Set(addresses)];
  const byHash = new Map(unique.map((address) => [suppressionHash(deps.encryptionKey, organizationId, address), address]));
  const rows = await deps.db
    .select({ id: suppressions.id, email: suppressions.email, emailHash: suppressions.emailHash, reason: suppressions.reason, emailId: suppressions.emailId, createdAt: suppressions.createdAt })
    .from(suppressions)
    .where(and(eq(suppressions.organizationId, organizationId), or(inArray(suppressions.email, unique), inArray(suppressions.emailHash, [...byHash.keys()]))));
  return new Map(rows.map(({ email, emailHash, createdAt, ...entry }) => [email ?? byHash.get(emailHash ?? '') ?? '', { ...entry, createdAt: createdAt.toISOString() }]));
}
