import { sql, type SQL } from 'drizzle-orm';
import { column, columnNames, tableName } from '@/db/raw-sql';
import { usageCounters, usageDays } from '@/db/schema';
import type { Reservation } from './sending-limits';

const p = (name: keyof Reservation, type: string) => sql`${sql.placeholder(`reserve_${name}`)}::${sql.raw(type)}`;

/** The reservation as the named placeholders of {@link RESERVE_USAGE}. */
export function reservationValues(reservation: Reservation): Record<string, unknown> {
  return Object.fromEntries(Object.entries(reservation).map(([key, value]) => [`reserve_${key}`, value]));
}

const counter = (key: 'dayRecipients' | 'monthRecipients', period: 'day' | 'month') =>
  sql`(case when ${column(usageCounters, period, 'u')} = excluded.${column(usageCounters, period)} then ${column(usageCounters, key, 'u')} else 0 end) + excluded.${column(usageCounters, key)}`;

/**
 * Two CTEs for a statement that stores accepted email: `reserved` moves today's, this month's and
 * the list-send counters in one conditional upsert of the organization's counter row, and returns
 * a row only when all of them still fit. The row lock orders concurrent senders of every process,
 * and the check reads the latest committed counts, so no race passes a limit by one recipient.
 * `usage_history` adds the same recipients to the day's history, with the part past the quota
 * metered as overage. The caller stores its emails only `where exists (select 1 from reserved)`.
 * (A first insert skips the check: the caller allotted against no counters, so it fits.)
 */
export const RESERVE_USAGE: SQL = sql`reserved as (
    insert into ${tableName(usageCounters, 'u')} (${columnNames(usageCounters, ['organizationId', 'day', 'dayRecipients', 'month', 'monthRecipients', 'listRecipients'])})
    values (${p('organizationId', 'uuid')}, ${p('day', 'date')}, ${p('recipients', 'int')}, ${p('month', 'date')}, ${p('recipients', 'int')}, ${p('listRecipients', 'int')})
    on conflict (${column(usageCounters, 'organizationId')}) do update set
      ${column(usageCounters, 'dayRecipients')} = ${counter('dayRecipients', 'day')},
      ${column(usageCounters, 'day')} = excluded.${column(usageCounters, 'day')},
      ${column(usageCounters, 'monthRecipients')} = ${counter('monthRecipients', 'month')},
      ${column(usageCounters, 'month')} = excluded.${column(usageCounters, 'month')},
      ${column(usageCounters, 'listRecipients')} = ${column(usageCounters, 'listRecipients', 'u')} + excluded.${column(usageCounters, 'listRecipients')}
    where ${counter('dayRecipients', 'day')} <= ${p('dayLimit', 'int')}
      and ${counter('monthRecipients', 'month')} <= ${p('monthLimit', 'int')}
      and ${column(usageCounters, 'listRecipients', 'u')} + excluded.${column(usageCounters, 'listRecipients')} <= ${p('listLimit', 'int')}
    returning ${column(usageCounters, 'monthRecipients')} as month_recipients
  ), metered as (
    select greatest(0, month_recipients - ${p('quota', 'int')}) - greatest(0, month_recipients - ${p('recipients', 'int')} - ${p('quota', 'int')}) as recipients from reserved
  ), usage_history as (
    insert into ${tableName(usageDays, 'd')} (${columnNames(usageDays, ['organizationId', 'day', 'recipients', 'overageRecipients', 'overageCostMillicents'])})
    select ${p('organizationId', 'uuid')}, ${p('day', 'date')}, ${p('recipients', 'int')}, m.recipients, m.recipients::bigint * ${p('overageRateCents', 'int')} from metered m
    on conflict (${column(usageDays, 'organizationId')}, ${column(usageDays, 'day')}) do update set
      ${column(usageDays, 'recipients')} = ${column(usageDays, 'recipients', 'd')} + excluded.${column(usageDays, 'recipients')},
      ${column(usageDays, 'overageRecipients')} = ${column(usageDays, 'overageRecipients', 'd')} + excluded.${column(usageDays, 'overageRecipients')},
      ${column(usageDays, 'overageCostMillicents')} = ${column(usageDays, 'overageCostMillicents', 'd')} + excluded.${column(usageDays, 'overageCostMillicents')}
  )`;
