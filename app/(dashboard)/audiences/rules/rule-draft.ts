import type { EngagementActivity, PropertyOperator } from '@/server/vocabulary/segment-rules';
import { fieldErrors } from '../../../lib/field-errors';
import { inputText, parseInput } from '../../contacts/property-values';
import type { ContactProperty } from '../../contacts/types';
import type { SegmentRules, SegmentRulesInput } from '../types';
import { operatorsFor, takesValue } from './rule-words';

/** A condition as the editor holds it: its value and its days as typed. */
export type ConditionDraft =
  | { type: 'property'; key: string; operator: PropertyOperator; value: string }
  | { type: 'engagement'; activity: EngagementActivity; withinDays: string; negate: boolean };

export interface RulesDraft {
  match: SegmentRules['match'];
  conditions: ConditionDraft[];
}

/** The server's bounds (services/segments/rules.ts and the router's `within_days`). */
export const CONDITION_LIMIT = 20;
export const WITHIN_DAYS_MAX = 3650;

/** "A person opened or clicked in the last 30 days": the rule most segments start from. */
export const engagementDraft = (): ConditionDraft => ({ type: 'engagement', activity: 'opened_or_clicked', withinDays: '30', negate: false });

/** The first property, compared by equality, no value yet. */
export const propertyDraft = (properties: ContactProperty[]): ConditionDraft => ({ type: 'property', key: properties[0]?.key ?? '', operator: 'equals', value: '' });

export const newRulesDraft = (): RulesDraft => ({ match: 'all', conditions: [engagementDraft()] });

/** The saved rules as the editor holds them; a value as its field shows it (a date-time as its day). */
export function draftOf(rules: SegmentRules, properties: ContactProperty[]): RulesDraft {
  return {
    match: rules.match,
    conditions: rules.conditions.map((condition): ConditionDraft => {
      if (condition.type === 'engagement') return { type: 'engagement', activity: condition.activity, withinDays: String(condition.withinDays), negate: condition.negate ?? false };
      const type = properties.find((property) => property.key === condition.key)?.type ?? 'string';
      return { type: 'property', key: condition.key, operator: condition.operator, value: inputText(type, condition.value) };
    }),
  };
}

/** A property condition moved to another property: a comparison that type has not, and the value typed for the other, start again. */
export function withKey(condition: ConditionDraft & { type: 'property' }, key: string, properties: ContactProperty[]): ConditionDraft {
  const type = properties.find((property) => property.key === key)?.type ?? 'string';
  return { ...condition, key, operator: operatorsFor(type).includes(condition.operator) ? condition.operator : 'equals', value: '' };
}

/**
 * The rules as the API takes them, or why a condition is none, by its place: a property that is
 * not defined, a value that is not of its type (the server's own check), days that are no whole
 * number from 1 to 3650.
 */
export function rulesInputOf(draft: RulesDraft, properties: ContactProperty[]): { rules: SegmentRulesInput } | { errors: Record<number, string> } {
  const errors: Record<number, string> = {};
  const conditions = draft.conditions.map((condition, index): SegmentRulesInput['conditions'][number] | null => {
    if (condition.type === 'engagement') {
      const days = Number(condition.withinDays.trim());
      if (!Number.isInteger(days) || days < 1 || days > WITHIN_DAYS_MAX || condition.withinDays.trim() === '') {
        errors[index] = `the days must be a whole number from 1 to ${WITHIN_DAYS_MAX.toLocaleString('en')}`;
        return null;
      }
      return { type: 'engagement', activity: condition.activity, within_days: days, ...(condition.negate ? { negate: true } : {}) };
    }
    const property = properties.find((entry) => entry.key === condition.key);
    if (!property) {
      errors[index] = 'choose a property';
      return null;
    }
    if (!takesValue(condition.operator)) return { type: 'property', key: condition.key, operator: condition.operator };
    const parsed = parseInput(property.type, condition.value);
    if ('error' in parsed) errors[index] = parsed.error;
    else if (parsed.value === null) errors[index] = 'give a value to compare with';
    else return { type: 'property', key: condition.key, operator: condition.operator, value: parsed.value };
    return null;
  });
  if (Object.keys(errors).length > 0) return { errors };
  return { rules: { match: draft.match, conditions: conditions.filter((condition) => condition !== null) } };
}

const CONDITION_FIELD = 'rules\\.conditions\\.\\d+';

/**
 * The API's refusal of a segment split by where it points: `name`, a condition by its place
 * (`rules.conditions.2.value: …`), the rules as a whole; the rest in `other`, for an alert.
 */
export function segmentErrors(error: unknown): { name?: string; rules?: string; byCondition: Record<number, string>; other: unknown } {
  const { byField, other } = fieldErrors(error, ['name', CONDITION_FIELD, 'rules']);
  const byCondition: Record<number, string> = {};
  for (const [field, message] of Object.entries(byField as Record<string, string | undefined>)) {
    const place = /^rules\.conditions\.(\d+)$/.exec(field);
    if (place && message) byCondition[Number(place[1])] = message;
  }
  return { name: byField.name, rules: byField.rules, byCondition, other };
}
