import type { Deps } from '../../deps';
import type { MetricsSources } from '../../metrics/metrics';
import { deliveryStatus, queueDepths } from './status';

/** The queue depth is a scan of the open recipients: read at most this often, whatever the scrape interval. */
const CACHE_MS = 60_000;

/** What /metrics shows of traffic shaping, read at scrape time; the queue depths are kept a minute. */
export function shapingMetrics(deps: Deps): MetricsSources['deliveryProviders'] {
  let cached: { at: number; depths: Map<string, number> } | null = null;
  const depths = async () => {
    if (cached && performance.now() - cached.at < CACHE_MS) return cached.depths;
    cached = { at: performance.now(), depths: await queueDepths(deps) };
    return cached.depths;
  };
  return async () => {
    const providers = await deliveryStatus(deps, depths);
    return {
      providers: providers.map((entry) => {
        const replies = entry.lanes.reduce((sum, lane) => sum + lane.replies, 0);
        const deferrals = entry.lanes.reduce((sum, lane) => sum + lane.deferrals, 0);
        return { provider: entry.provider, queued: entry.queued, deferralRate: replies > 0 ? deferrals / replies : 0 };
      }),
      // A sending domain is a label only while its traffic is slowed by replies or paused: the series stay few.
      lanes: providers.flatMap((entry) =>
        entry.lanes
          .filter((lane) => lane.adapted || lane.paused !== null)
          .map((lane) => ({ provider: entry.provider, sendingDomain: lane.sendingDomain, ratePerMinute: lane.ratePerMinute, paused: lane.paused !== null })),
      ),
    };
  };
}
