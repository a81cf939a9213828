import { sql, type SQL } from 'drizzle-orm';
import { column, columnNames, tableName } from '@/db/raw-sql';
import { usageCounters } from '@/db/schema';
import type { Reservation } from './sending-limits';

const p = (name: keyof Reservation, type: string) => sql`${sql.placeholder(`reserve_${name}`)}::${sql.raw(type)}`;

/** The reservation as the named placeholders of {@link RESERVE_USAGE}. */
export function reservationValues(reservation: Reservation): Record<string, unknown> {
  return Object.fromEntries(Object.entries(reservation).map(([key, value]) => [`reserve_${key}`, value]));
}

type CounterKey = keyof typeof usageCounters._.columns & string;
const old = (key: CounterKey) => column(usageCounters, key, 'u');
const given = (key: CounterKey) => sql`excluded.${column(usageCounters, key)}`;
const sameDay = sql`${old('day')} = ${given('day')}`;
const sameMonth = sql`${old('month')} = ${given('month')}`;
/** A counter of the stored row, as of the request's day or month (a past one counts from zero). */
const current = (key: CounterKey, same: SQL) => sql`(case when ${same} then ${old(key)} else 0 end)`;
/** Rolls a value over: kept while the day (or month) is the same, else what the old period ended with. */
const rolled = (kept: CounterKey, from: SQL, same: SQL) => sql`case when ${same} then ${old(kept)} else ${from} end`;

const monthAfter = sql`${current('monthRecipients', sameMonth)} + ${p('recipients', 'int')}`;
// The part of these recipients past the quota: what overage meters.
const metered = sql`(greatest(0, ${monthAfter} - ${p('quota', 'int')}) - greatest(0, ${current('monthRecipients', sameMonth)} - ${p('quota', 'int')}))`;
const meteredFirst = sql`greatest(0, ${p('recipients', 'int')} - ${p('quota', 'int')})`;

/**
 * `reserved`, a CTE for a statement that stores accepted email: one conditional upsert of the
 * organization's counter row moves today's, this month's and the list-send counters, and the
 * month's metered overage, and returns a row only when all of them still fit. The row lock orders
 * concurrent senders of every process, and the check reads the latest committed counts, so no race
 * passes a limit by one recipient. A day or month rolling over keeps what it ended with in the
 * previous_* columns (archived hourly by the standing evaluation): the statement writes no other row.
 * The caller stores its emails only `where exists (select 1 from reserved)`.
 * (A first insert skips the check: the caller allotted against no counters, so it fits.)
 */
export const RESERVE_USAGE: SQL = sql`reserved as (
    insert into ${tableName(usageCounters, 'u')} (${columnNames(usageCounters, ['organizationId', 'day', 'dayRecipients', 'month', 'monthRecipients', 'listRecipients', 'monthOverageRecipients', 'monthOverageMillicents'])})
    values (${p('organizationId', 'uuid')}, ${p('day', 'date')}, ${p('recipients', 'int')}, ${p('month', 'date')}, ${p('recipients', 'int')}, ${p('listRecipients', 'int')},
      ${meteredFirst}, ${meteredFirst}::bigint * ${p('overageRateCents', 'int')})
    on conflict (${column(usageCounters, 'organizationId')}) do update set
      ${column(usageCounters, 'previousDay')} = ${rolled('previousDay', old('day'), sameDay)},
      ${column(usageCounters, 'previousDayRecipients')} = ${rolled('previousDayRecipients', old('dayRecipients'), sameDay)},
      ${column(usageCounters, 'dayRecipients')} = ${current('dayRecipients', sameDay)} + ${given('dayRecipients')},
      ${column(usageCounters, 'day')} = ${given('day')},
      ${column(usageCounters, 'previousMonth')} = ${rolled('previousMonth', old('month'), sameMonth)},
      ${column(usageCounters, 'previousMonthOverageRecipients')} = ${rolled('previousMonthOverageRecipients', old('monthOverageRecipients'), sameMonth)},
      ${column(usageCounters, 'previousMonthOverageMillicents')} = ${rolled('previousMonthOverageMillicents', old('monthOverageMillicents'), sameMonth)},
      ${column(usageCounters, 'monthOverageRecipients')} = ${current('monthOverageRecipients', sameMonth)} + ${metered},
      ${column(usageCounters, 'monthOverageMillicents')} = ${current('monthOverageMillicents', sameMonth)} + ${metered}::bigint * ${p('overageRateCents', 'int')},
      ${column(usageCounters, 'monthRecipients')} = ${monthAfter},
      ${column(usageCounters, 'month')} = ${given('month')},
      ${column(usageCounters, 'listRecipients')} = ${old('listRecipients')} + ${given('listRecipients')}
    where ${current('dayRecipients', sameDay)} + ${given('dayRecipients')} <= ${p('dayLimit', 'int')}
      and ${monthAfter} <= ${p('monthLimit', 'int')}
      and ${old('listRecipients')} + ${given('listRecipients')} <= ${p('listLimit', 'int')}
    returning ${column(usageCounters, 'monthRecipients')} as month_recipients
  )`;
