import { bigint, check, date, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations';

/**
 * The live sending counters of one organization, in one row so that one conditional UPDATE
 * checks and moves all of them at once: today's recipients, this month's, and the one-time
 * list-send allowance used before review. A counter whose day or month is past counts from zero.
 */
export const usageCounters = pgTable('usage_counters', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  day: date('day', { mode: 'string' }).notNull(),
  dayRecipients: integer('day_recipients').notNull().default(0),
  month: date('month', { mode: 'string' }).notNull(),
  monthRecipients: integer('month_recipients').notNull().default(0),
  listRecipients: integer('list_recipients').notNull().default(0),
  /** Recipients metered past the quota this month, and their cost in thousandths of a euro cent. */
  monthOverageRecipients: integer('month_overage_recipients').notNull().default(0),
  monthOverageMillicents: bigint('month_overage_millicents', { mode: 'number' }).notNull().default(0),
  /**
   * What the last rollover moved out, so that the hot statement writes no history row: the hourly
   * standing evaluation archives the previous day into usage_days; the previous month's overage
   * stays here, billed.
   */
  previousDay: date('previous_day', { mode: 'string' }),
  previousDayRecipients: integer('previous_day_recipients').notNull().default(0),
  previousMonth: date('previous_month', { mode: 'string' }),
  previousMonthOverageRecipients: integer('previous_month_overage_recipients').notNull().default(0),
  previousMonthOverageMillicents: bigint('previous_month_overage_millicents', { mode: 'number' }).notNull().default(0),
  /** The month whose entry into overage was already told to the owner. */
  overageNotifiedMonth: date('overage_notified_month', { mode: 'string' }),
});

/** Live recipients accepted per past UTC day, archived from the counters by the hourly standing evaluation: the busiest day and the chart read it. */
export const usageDays = pgTable(
  'usage_days',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    recipients: integer('recipients').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/** TEST_CLOCK=on: the offset every process adds to real time, so clock:set moves them all. */
export const testClock = pgTable(
  'test_clock',
  {
    id: integer('id').primaryKey().default(1),
    offsetMs: bigint('offset_ms', { mode: 'number' }).notNull(),
  },
  (t) => [check('test_clock_single_row', sql`${t.id} = 1`)],
);
