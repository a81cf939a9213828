import type { Sender } from '../../domains/authentication/sender';
import { check, type PreflightCheck, type PreflightCheckId } from './checks';

const REGISTER = 'register it (POST /domains), publish the records it lists and verify it';

export function judgeSenderDomain(sender: Sender): PreflightCheck {
  switch (sender.kind) {
    case 'invalid':
      return check('sender_domain', 'fail', `The From address "${sender.from}" is not valid (${sender.reason}). To fix it, set from to an address on one of your verified domains.`);
    case 'sandbox':
      return check('sender_domain', 'fail', `${sender.domain} is the shared sandbox domain, which reaches only the account owner. To fix it, send from a domain of your own: ${REGISTER}.`);
    case 'unregistered':
      return check('sender_domain', 'fail', `${sender.domain} is not a domain of this account. To fix it, ${REGISTER}, or send from one of your verified domains.`);
    case 'registered':
      if (sender.status === 'verified') return check('sender_domain', 'pass', `${sender.domain} is a verified domain of this account.`);
      return check(
        'sender_domain',
        'fail',
        `${sender.domain} is registered but not verified (status ${sender.status}${sender.failureReason ? `: ${sender.failureReason}` : ''}). To fix it, publish the records GET /domains/${sender.id} lists and verify it with POST /domains/${sender.id}/verify.`,
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
  return ids.map((id) => check(id, 'fail', `Not checked: ${why}. ${NOT_CHECKED_FIX}`));
}
