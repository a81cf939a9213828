import type { Deps } from '../../../deps';
import { measureRates } from '../../plans/standing';
import type { Principal } from '../../shared/principal';
import { readerOf } from '../../shared/reader';
import { DAY_MS } from '../../shared/time';
import { audienceCounts } from './audience-read';
import { judgeAudienceQuality } from './audience-quality';
import { judgeRecordedConsent } from './recorded-consent';
import { authenticationChecks } from './authentication';
import { bodiesOf } from './bodies-read';
import { ownBroadcast } from './broadcast-read';
import { preflightOf, type Preflight } from './checks';
import { COMPLAINT_RATE, judgeComplaintRate } from './complaint-rate';
import { judgeOneClickUnsubscribe, judgeVisibleUnsubscribe } from './unsubscribe';

export type { Preflight, PreflightCheck } from './checks';

export type PreflightDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

/**
 * `GET /broadcasts/{id}/preflight`: what Gmail's and Yahoo's bulk-sender rules ask of this
 * broadcast, judged now (live DNS, the last 7 days of mail, the audience as it is). Ready when no
 * check fails. 404 for another organization's broadcast.
 */
export async function preflightBroadcast(deps: PreflightDeps, principal: Principal, broadcastId: string): Promise<Preflight> {
  const organizationId = principal.organizationId;
  const broadcast = await ownBroadcast(deps.db, organizationId, broadcastId);
  const since = new Date(deps.clock.now().getTime() - COMPLAINT_RATE.windowDays * DAY_MS);
  const [authentication, bodies, rates, audience] = await Promise.all([
    authenticationChecks(deps, organizationId, broadcast.from, readerOf(principal)),
    bodiesOf(deps.db, organizationId, broadcast),
    measureRates(deps, organizationId, since),
    audienceCounts(deps.db, organizationId, broadcast),
  ]);
  return preflightOf([
    ...authentication,
    judgeOneClickUnsubscribe(deps.config.appUrl),
    judgeVisibleUnsubscribe(bodies),
    judgeComplaintRate(rates),
    judgeAudienceQuality(audience),
    judgeRecordedConsent(audience),
  ]);
}
