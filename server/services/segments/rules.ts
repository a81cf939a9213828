import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactProperties, type ContactPropertyType } from '@/db/schema';
import { validationError } from '../../errors';
import { propertyValueOf } from '../contact-properties/values';
import type { SegmentCondition, SegmentRules } from '../../vocabulary/segment-rules';

export * from '../../vocabulary/segment-rules';

export const SEGMENT_CONDITION_LIMIT = 20;

const ORDERED: ReadonlySet<ContactPropertyType> = new Set(['number', 'date']);

/**
 * The rules checked against the organization's properties, as they are stored: each property
 * condition names one of them, compares it in a way its type allows, with a value of its type
 * (a date in UTC, as values are kept). The first problem is a 400 naming `rules.conditions.<n>`.
 */
export async function checkedRules(db: Db, organizationId: string, rules: SegmentRules): Promise<SegmentRules> {
  const types = new Map((await db.select({ key: contactProperties.key, type: contactProperties.type }).from(contactProperties).where(eq(contactProperties.organizationId, organizationId))).map((row) => [row.key, row.type]));
  const conditions = rules.conditions.map((condition, index): SegmentCondition => {
    const at = `rules.conditions.${index}`;
    if (condition.type === 'engagement') return condition;
    const type = types.get(condition.key);
    if (!type) throw validationError(`${at}.key: no contact property has the key "${condition.key}"`);
    if (condition.operator === 'exists' || condition.operator === 'not_exists') return { type: 'property', key: condition.key, operator: condition.operator };
    if ((condition.operator === 'greater_than' || condition.operator === 'less_than') && !ORDERED.has(type)) throw validationError(`${at}.operator: ${condition.operator} compares numbers and dates; "${condition.key}" is a ${type}`);
    if (condition.operator === 'contains' && type !== 'string') throw validationError(`${at}.operator: contains looks into text; "${condition.key}" is a ${type}`);
    if (condition.value === undefined) throw validationError(`${at}.value: is required for ${condition.operator}`);
    const checked = propertyValueOf(type, condition.value);
    if ('error' in checked) throw validationError(`${at}.value: ${checked.error}`);
    return { ...condition, value: checked.value };
  });
  return { match: rules.match, conditions };
}
