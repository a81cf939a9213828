import { sql } from 'drizzle-orm';
import { column, tableName } from '@/db/raw-sql';
import { deliveryProviderDomains, deliveryShaping, emailRecipients } from '@/db/schema';
import type { Deps } from '../../deps';
import type { ProviderLimits } from '../../mail/shaping';
import { limitsFor } from './limits';
import { knownProvider } from './providers';
import { EVERY_DOMAIN } from './shaper';

export interface LaneStatus {
  /** '*': every sending domain. */
  sendingDomain: string;
  /** Messages per minute allowed now; null: no limit. */
  ratePerMinute: number | null;
  /** Whether the replies have lowered it below the table's limit. */
  adapted: boolean;
  replies: number;
  deferrals: number;
  /** Deferrals among the replies of the last five to ten minutes. */
  deferralRate: number;
  paused: { since: string; until: string | null; by: 'reply' | 'operator'; reason: string } | null;
}

export interface ProviderStatus {
  provider: string;
  label: string;
  limits: ProviderLimits;
  /** Recipients still to deliver (pending or deferred) whose domain was last seen at this provider. */
  queued: number;
  lanes: LaneStatus[];
}

/**
 * Open recipients per provider. Their rows name their domain; the providers' domains are as the
 * deliveries last saw them (a domain never tried yet counts under its own name). A scan of the open
 * recipients: for the operator's command and a cached gauge, never for the send path.
 */
export async function queueDepths(deps: Pick<Deps, 'db'>): Promise<Map<string, number>> {
  const r = (key: 'provider' | 'status') => column(emailRecipients, key, 'r');
  const rows = await deps.db.execute<{ provider: string; queued: number }>(sql`
    select coalesce(${column(deliveryProviderDomains, 'provider', 'd')}, ${r('provider')}) as provider, count(*)::int as queued
    from ${tableName(emailRecipients, 'r')} left join ${tableName(deliveryProviderDomains, 'd')} on ${column(deliveryProviderDomains, 'domain', 'd')} = ${r('provider')}
    where ${r('status')} in ('pending', 'deferred') group by 1`);
  const list = (Array.isArray(rows) ? rows : (rows as { rows: Array<{ provider: string; queued: number }> }).rows) as Array<{ provider: string; queued: number }>;
  return new Map(list.map((row) => [row.provider, Number(row.queued)]));
}

/**
 * Every provider with recipients waiting, an adapted rate, recent replies or a pause: this
 * process's view merged with what every process wrote (rates are flushed every few seconds; the
 * process that delivered most recently wrote last).
 */
export async function deliveryStatus(
  deps: Pick<Deps, 'db' | 'shaping' | 'config' | 'clock'>,
  depths: () => Promise<Map<string, number>> = () => queueDepths(deps),
): Promise<ProviderStatus[]> {
  await deps.shaping.sync();
  const now = deps.clock.now().getTime();
  const [queues, rows] = await Promise.all([depths(), deps.db.select().from(deliveryShaping)]);
  const providers = new Map<string, ProviderStatus>();
  const providerOf = (id: string): ProviderStatus => {
    let entry = providers.get(id);
    if (!entry) {
      entry = { provider: id, label: knownProvider(id)?.label ?? `MX host ${id}`, limits: limitsFor(id, deps.config.deliveryProviderLimits), queued: queues.get(id) ?? 0, lanes: [] };
      providers.set(id, entry);
    }
    return entry;
  };
  for (const id of queues.keys()) providerOf(id);
  // What every process flushed, then this process's own lanes as they are now (healthy ones are never written).
  const lanes = new Map<string, { provider: string; sendingDomain: string; rate: number | null; replies: number; deferrals: number; row?: (typeof rows)[number] }>();
  for (const row of rows) lanes.set(`${row.provider} ${row.sendingDomain}`, { provider: row.provider, sendingDomain: row.sendingDomain, rate: row.ratePerMinute, replies: row.replies, deferrals: row.deferrals, row });
  for (const lane of deps.shaping.allLanes()) {
    const live = deps.shaping.snapshot(lane);
    const key = `${lane.provider} ${lane.sendingDomain}`;
    lanes.set(key, { ...lanes.get(key), provider: lane.provider, sendingDomain: lane.sendingDomain, rate: live.ratePerMinute, replies: live.replies, deferrals: live.deferrals });
  }
  for (const { provider, sendingDomain, rate, replies, deferrals, row } of lanes.values()) {
    const active = row?.pausedAt != null && (row.pausedUntil === null || row.pausedUntil.getTime() > now);
    if (!active && rate === null && replies === 0) continue;
    const entry = providerOf(provider);
    entry.lanes.push({
      sendingDomain: sendingDomain === EVERY_DOMAIN ? '*' : sendingDomain,
      ratePerMinute: rate ?? entry.limits.messagesPerMinute,
      adapted: rate !== null,
      replies,
      deferrals,
      deferralRate: replies > 0 ? Math.round((deferrals / replies) * 1000) / 1000 : 0,
      paused: active ? { since: row!.pausedAt!.toISOString(), until: row!.pausedUntil?.toISOString() ?? null, by: row!.pausedBy === 'operator' ? 'operator' : 'reply', reason: row!.pauseReason ?? '' } : null,
    });
  }
  return [...providers.values()].sort((a, b) => b.queued - a.queued || a.provider.localeCompare(b.provider));
}
