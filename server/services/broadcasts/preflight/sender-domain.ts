import type { Sender } from '../../domains/authentication/sender';
import { domainFixes } from '../../domains/fix-it';
import type { Reader } from '../../shared/reader';
import { check, type PreflightCheck, type PreflightCheckId, type PreflightFix } from './checks';

/** The domain whose change fixes the sender's checks; null for a From that is no address (the broadcast's own field fixes that). */
export function senderFix(sender: Sender): PreflightFix | null {
  switch (sender.kind) {
    case 'invalid':
      return null;
    case 'sandbox':
      return { resource: 'domain', id: null, name: null };
    case 'unregistered':
      return { resource: 'domain', id: null, name: sender.domain };
    case 'registered':
      return { resource: 'domain', id: sender.id, name: sender.domain };
  }
}

export function judgeSenderDomain(sender: Sender, reader: Reader): PreflightCheck {
  const fixes = domainFixes(reader);
  const fail = (detail: string) => check('sender_domain', 'fail', detail, senderFix(sender));
  switch (sender.kind) {
    case 'invalid':
      return fail(`The From address "${sender.from}" is not valid (${sender.reason}). To fix it, set from to an address on one of your verified domains.`);
    case 'sandbox':
      return fail(`${sender.domain} is the shared sandbox domain, which reaches only the account owner. To fix it, send from a domain of your own: ${fixes.register}.`);
    case 'unregistered':
      return fail(`${sender.domain} is not a domain of this account. To fix it, ${fixes.register}, or send from one of your verified domains.`);
    case 'registered':
      if (sender.status === 'verified') return check('sender_domain', 'pass', `${sender.domain} is a verified domain of this account.`);
      return fail(
        `${sender.domain} is registered but not verified (status ${sender.status}${sender.failureReason ? `: ${sender.failureReason}` : ''}). To fix it, ${fixes.publishAndVerify(sender.id)}.`,
      );
  }
}

const NOT_CHECKED_FIX = 'To fix it, send from one of your verified domains (see sender_domain).';

/**
 * SPF and DKIM read the domain's return path and signing key, so they have nothing to check
 * without a domain of the account; DMARC needs at least a domain name.
 */
export function uncheckedAuthentication(sender: Exclude<Sender, { kind: 'registered' }>): PreflightCheck[] {
  const why =
    sender.kind === 'invalid'
      ? 'the From address is not valid'
      : sender.kind === 'sandbox'
        ? `${sender.domain} is the shared sandbox domain, which broadcasts cannot use`
        : `${sender.domain} is not a domain of this account, so it has no return path or signing key of ours`;
  const ids: PreflightCheckId[] = sender.kind === 'invalid' ? ['spf', 'dkim', 'dmarc'] : ['spf', 'dkim'];
  return ids.map((id) => check(id, 'fail', `Not checked: ${why}. ${NOT_CHECKED_FIX}`, senderFix(sender)));
}
