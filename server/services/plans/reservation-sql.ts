import { sql, type SQL } from 'drizzle-orm';
import { column, tableName } from '@/db/raw-sql';
import { usageCounters } from '@/db/schema';
import type { Reservation } from './sending-limits';

const p = (name: keyof Reservation, type: string) => sql`${sql.placeholder(`reserve_${name}`)}::${sql.raw(type)}`;

/** The reservation as the named placeholders of {@link RESERVE_USAGE}. */
export function reservationValues(reservation: Reservation): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key in reservation) values[`reserve_${key}`] = reservation[key as keyof Reservation];
  return values;
}

type CounterKey = keyof typeof usageCounters._.columns & string;
const old = (key: CounterKey) => column(usageCounters, key, 'u');
const set = (key: CounterKey, value: SQL) => sql`${column(usageCounters, key)} = ${value}`;
const sameDay = sql`${old('day')} = ${p('day', 'date')}`;
const sameMonth = sql`${old('month')} = ${p('month', 'date')}`;
/** A counter of the stored row, as of the request's day or month (a past one counts from zero). */
const current = (key: CounterKey, same: SQL) => sql`(case when ${same} then ${old(key)} else 0 end)`;
/** Rolls a value over: kept while the day (or month) is the same, else what the old period ended with. */
const rolled = (kept: CounterKey, from: SQL, same: SQL) => sql`case when ${same} then ${old(kept)} else ${from} end`;

const dayAfter = sql`${current('dayRecipients', sameDay)} + ${p('recipients', 'int')}`;
const monthAfter = sql`${current('monthRecipients', sameMonth)} + ${p('recipients', 'int')}`;
const listAfter = sql`${old('listRecipients')} + ${p('listRecipients', 'int')}`;
// The part of these recipients past the quota: what overage meters.
const metered = sql`(greatest(0, ${monthAfter} - ${p('quota', 'int')}) - greatest(0, ${current('monthRecipients', sameMonth)} - ${p('quota', 'int')}))`;

/**
 * `reserved`, a CTE for a statement that stores accepted email: one conditional UPDATE of the
 * organization's counter row moves today's, this month's and the list-send counters, and the
 * month's metered overage, and returns a row only when all of them still fit. The row lock orders
 * concurrent senders of every process, and the check reads the latest committed counts, so no race
 * passes a limit by one recipient. A day or month rolling over keeps what it ended with in the
 * previous_* columns (archived hourly by the standing evaluation): the statement writes no other row.
 * The caller stores its emails only `where exists (select 1 from reserved)`. An organization with
 * no counter row yet reserves nothing: the caller creates the row ({@link createUsageCounters}) and
 * tries again, so the hot statement is a plain update, with no speculative insertion.
 */
export const RESERVE_USAGE: SQL = sql`reserved as (
    update ${tableName(usageCounters, 'u')} set
      ${sql.join(
        [
          set('previousDay', rolled('previousDay', old('day'), sameDay)),
          set('previousDayRecipients', rolled('previousDayRecipients', old('dayRecipients'), sameDay)),
          set('dayRecipients', dayAfter),
          set('day', p('day', 'date')),
          set('previousMonth', rolled('previousMonth', old('month'), sameMonth)),
          set('previousMonthOverageRecipients', rolled('previousMonthOverageRecipients', old('monthOverageRecipients'), sameMonth)),
          set('previousMonthOverageMillicents', rolled('previousMonthOverageMillicents', old('monthOverageMillicents'), sameMonth)),
          set('monthOverageRecipients', sql`${current('monthOverageRecipients', sameMonth)} + ${metered}`),
          set('monthOverageMillicents', sql`${current('monthOverageMillicents', sameMonth)} + ${metered}::bigint * ${p('overageRateCents', 'int')}`),
          set('monthRecipients', monthAfter),
          set('month', p('month', 'date')),
          set('listRecipients', listAfter),
        ],
        sql.raw(',\n      '),
      )}
    where ${old('organizationId')} = ${p('organizationId', 'uuid')}
      and ${dayAfter} <= ${p('dayLimit', 'int')}
      and ${monthAfter} <= ${p('monthLimit', 'int')}
      and ${listAfter} <= ${p('listLimit', 'int')}
    returning ${old('monthRecipients')} as month_recipients
  )`;
