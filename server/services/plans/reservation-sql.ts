import { sql, type SQL } from 'drizzle-orm';
import { column, recordsetOf, tableName } from '@/db/raw-sql';
import { usageCounters } from '@/db/schema';
import type { Reservation } from './sending-limits';

/** Each reservation's fields as the input rows of {@link RESERVE_USAGE} name and type them. */
const RESERVATION_FIELDS: Array<[keyof Reservation, string, string]> = [
  ['day', 'day', 'date'],
  ['month', 'month', 'date'],
  ['recipients', 'recipients', 'int'],
  ['listRecipients', 'list_recipients', 'int'],
  ['dayLimit', 'day_limit', 'int'],
  ['monthLimit', 'month_limit', 'int'],
  ['listLimit', 'list_limit', 'int'],
  ['quota', 'quota', 'int'],
  ['overageRateCents', 'overage_rate_cents', 'int'],
];

/** The reservations as the input rows of {@link RESERVE_USAGE}'s `reservations` placeholder (one per organization). */
export function reservationRecords(reservations: Reservation[]): Array<Record<string, unknown>> {
  return reservations.map((reservation) => {
    const record: Record<string, unknown> = { organization_id: reservation.organizationId };
    for (const [key, name] of RESERVATION_FIELDS) record[name] = reservation[key];
    return record;
  });
}

const p = (name: keyof Reservation) => sql`r.${sql.identifier(RESERVATION_FIELDS.find(([key]) => key === name)![1])}`;

type CounterKey = keyof typeof usageCounters._.columns & string;
const old = (key: CounterKey) => column(usageCounters, key, 'u');
const set = (key: CounterKey, value: SQL) => sql`${column(usageCounters, key)} = ${value}`;
const sameDay = sql`${old('day')} = ${p('day')}`;
const sameMonth = sql`${old('month')} = ${p('month')}`;
/** A counter of the stored row, as of the request's day or month (a past one counts from zero). */
const current = (key: CounterKey, same: SQL) => sql`(case when ${same} then ${old(key)} else 0 end)`;
/** Rolls a value over: kept while the day (or month) is the same, else what the old period ended with. */
const rolled = (kept: CounterKey, from: SQL, same: SQL) => sql`case when ${same} then ${old(kept)} else ${from} end`;

const dayAfter = sql`${current('dayRecipients', sameDay)} + ${p('recipients')}`;
const monthAfter = sql`${current('monthRecipients', sameMonth)} + ${p('recipients')}`;
const listAfter = sql`${old('listRecipients')} + ${p('listRecipients')}`;
// The part of these recipients past the quota: what overage meters.
const metered = sql`(greatest(0, ${monthAfter} - ${p('quota')}) - greatest(0, ${current('monthRecipients', sameMonth)} - ${p('quota')}))`;

/**
 * `reserved`, CTEs for a statement that stores accepted email: for each reservation (at most one
 * per organization), one conditional UPDATE of the organization's counter row moves today's, this
 * month's and the list-send counters, and the month's metered overage, and returns the row only
 * when all of them still fit. The row locks order concurrent senders of every process, and the
 * check reads the latest committed counts, so no race passes a limit by one recipient. Several
 * organizations' reservations in one statement take their rows' locks in one order (by id, as
 * every such statement does), so two statements never wait on each other in a circle. A day or
 * month rolling over keeps what it ended with in the previous_* columns (archived hourly by the
 * standing evaluation): the statement writes no other row. The caller stores an organization's
 * emails only `where organization_id in (select organization_id from reserved)`. An organization
 * with no counter row yet reserves nothing: the caller creates the row ({@link createUsageCounters})
 * and tries again, so the hot statement is a plain update, with no speculative insertion.
 */
export const RESERVE_USAGE: SQL = sql`reservations as (
    select * from ${recordsetOf('reservations', 'r', usageCounters, ['organizationId'], RESERVATION_FIELDS.map(([, name, type]) => [name, type]))}
  ), locked as (
    select ${old('organizationId')} from ${tableName(usageCounters, 'u')}
    where ${old('organizationId')} in (select organization_id from reservations)
    order by ${old('organizationId')} for update
  ), reserved as (
    update ${tableName(usageCounters, 'u')} set
      ${sql.join(
        [
          set('previousDay', rolled('previousDay', old('day'), sameDay)),
          set('previousDayRecipients', rolled('previousDayRecipients', old('dayRecipients'), sameDay)),
          set('dayRecipients', dayAfter),
          set('day', p('day')),
          set('previousMonth', rolled('previousMonth', old('month'), sameMonth)),
          set('previousMonthOverageRecipients', rolled('previousMonthOverageRecipients', old('monthOverageRecipients'), sameMonth)),
          set('previousMonthOverageMillicents', rolled('previousMonthOverageMillicents', old('monthOverageMillicents'), sameMonth)),
          set('monthOverageRecipients', sql`${current('monthOverageRecipients', sameMonth)} + ${metered}`),
          set('monthOverageMillicents', sql`${current('monthOverageMillicents', sameMonth)} + ${metered}::bigint * ${p('overageRateCents')}`),
          set('monthRecipients', monthAfter),
          set('month', p('month')),
          set('listRecipients', listAfter),
        ],
        sql.raw(',\n      '),
      )}
    from reservations r
    where ${old('organizationId')} = r.organization_id
      and ${old('organizationId')} in (select organization_id from locked)
      and ${dayAfter} <= ${p('dayLimit')}
      and ${monthAfter} <= ${p('monthLimit')}
      and ${listAfter} <= ${p('listLimit')}
    returning ${old('organizationId')} as organization_id, ${old('monthRecipients')} as month_recipients
  )`;
