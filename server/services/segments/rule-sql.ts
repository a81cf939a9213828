import { sql, type SQL } from 'drizzle-orm';
import { DAY_MS } from '../shared/time';
import type { EngagementActivity, SegmentCondition, SegmentRules } from './rules';

const LAST: Record<EngagementActivity, SQL> = {
  delivered: sql.raw('c.last_delivered_at'),
  opened: sql.raw('c.last_opened_at'),
  clicked: sql.raw('c.last_clicked_at'),
  opened_or_clicked: sql.raw('greatest(c.last_opened_at, c.last_clicked_at)'),
};

function conditionSql(condition: SegmentCondition, now: Date): SQL {
  if (condition.type === 'engagement') {
    const since = new Date(now.getTime() - condition.withinDays * DAY_MS).toISOString();
    const within = sql`coalesce(${LAST[condition.activity]} >= ${since}::timestamptz, false)`;
    return condition.negate ? sql`not ${within}` : within;
  }
  const text = sql`(c.properties ->> ${condition.key})`;
  const has = sql`jsonb_exists(c.properties, ${condition.key})`;
  const value = condition.value;
  switch (condition.operator) {
    case 'exists':
      return has;
    case 'not_exists':
      return sql`not ${has}`;
    case 'contains':
      return sql`coalesce(position(lower(${String(value)}) in lower(${text})) > 0, false)`;
    case 'equals':
      return sql`coalesce((c.properties -> ${condition.key}) = ${JSON.stringify(value)}::jsonb, false)`;
    case 'not_equals':
      return sql`not coalesce((c.properties -> ${condition.key}) = ${JSON.stringify(value)}::jsonb, false)`;
    case 'greater_than':
    case 'less_than': {
      const op = sql.raw(condition.operator === 'greater_than' ? '>' : '<');
      // Numbers as numbers; dates as their ISO text, which sorts as time does.
      return typeof value === 'number'
        ? sql`coalesce(jsonb_typeof(c.properties -> ${condition.key}) = 'number' and ${text}::numeric ${op} ${value}, false)`
        : sql`coalesce(${text} ${op} ${String(value)}, false)`;
    }
  }
}

/** The rules as a condition on `contacts c`, evaluated at `now` (engagement windows end now). */
export function rulesSql(rules: SegmentRules, now: Date): SQL {
  const parts = rules.conditions.map((condition) => sql`(${conditionSql(condition, now)})`);
  return sql`(${sql.join(parts, sql.raw(rules.match === 'all' ? ' and ' : ' or '))})`;
}
