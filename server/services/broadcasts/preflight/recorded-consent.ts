import type { AudienceCounts } from './audience-quality';
import { check, type PreflightCheck } from './checks';
import { percent } from './percent';

/**
 * Whether the consent ledger can show how each contact the broadcast goes to agreed
 * (docs/consent.md). Contacts whose only entries are the ledger's start (or a path that did not
 * say) warn: the organization could not prove their consent if asked. A broadcast for confirmed
 * contacts only says how many it will skip; one that would reach nobody fails.
 */
export function judgeRecordedConsent(audience: AudienceCounts | null): PreflightCheck {
  if (audience === null || audience.subscribed === 0 || !audience.consent) return check('recorded_consent', 'pass', 'No subscribed contacts to judge.');
  const { subscribed } = audience;
  const { unrecorded, unconfirmed, confirmedOnly } = audience.consent;
  if (confirmedOnly) {
    if (unconfirmed === subscribed) {
      return check(
        'recorded_consent',
        'fail',
        `The broadcast goes only to contacts with confirmed consent, and none of the ${subscribed} subscribed contacts has it, so it would reach nobody. To fix it, ask them to confirm (double opt-in), or turn "confirmed consent only" off.`,
      );
    }
    if (unconfirmed > 0) {
      return check(
        'recorded_consent',
        'warn',
        `${unconfirmed} of the ${subscribed} subscribed contacts (${percent(unconfirmed, subscribed)}) have no confirmed consent and will be skipped; ${subscribed - unconfirmed} will get it.`,
      );
    }
    return check('recorded_consent', 'pass', `All ${subscribed} subscribed contacts confirmed their consent.`);
  }
  if (unrecorded > 0) {
    return check(
      'recorded_consent',
      'warn',
      `${unrecorded} of the ${subscribed} subscribed contacts (${percent(unrecorded, subscribed)}) have no recorded consent: they were subscribed before the consent ledger began, so you could not show how they agreed. To fix it, ask them to confirm (double opt-in), or send only to contacts with confirmed consent.`,
    );
  }
  return check('recorded_consent', 'pass', `The consent ledger records how each of the ${subscribed} subscribed contacts was subscribed.`);
}
