import type { EngagementActivity, PropertyOperator } from '@/server/vocabulary/segment-rules';
import type { ContactProperty, PropertyType } from '../../contacts/types';
import { valueText } from '../../contacts/property-values';
import type { SegmentCondition, SegmentRules } from '../types';

/**
 * The comparisons a property's type allows, as the server checks them (services/segments/rules.ts):
 * more and less for numbers and dates, contains for text, the others for every type.
 */
export function operatorsFor(type: PropertyType): PropertyOperator[] {
  const ordered: PropertyOperator[] = type === 'number' || type === 'date' ? ['greater_than', 'less_than'] : [];
  const text: PropertyOperator[] = type === 'string' ? ['contains'] : [];
  return ['equals', 'not_equals', ...ordered, ...text, 'exists', 'not_exists'];
}

/** Whether the comparison takes a value (has a value and has none do not). */
export const takesValue = (operator: PropertyOperator) => operator !== 'exists' && operator !== 'not_exists';

/** A comparison in words, for a property of `type`: a date is after or before, a number more or less. */
export function operatorWords(operator: PropertyOperator, type: PropertyType | undefined): string {
  switch (operator) {
    case 'equals':
      return 'is';
    case 'not_equals':
      return 'is not';
    case 'greater_than':
      return type === 'date' ? 'is after' : 'is more than';
    case 'less_than':
      return type === 'date' ? 'is before' : 'is less than';
    case 'contains':
      return 'contains';
    case 'exists':
      return 'has a value';
    case 'not_exists':
      return 'has no value';
  }
}

/**
 * What a contact did, as the engagement summary keeps it (a person's opens and clicks, not a
 * scanner's): after "did" or "did not" in the editor, and as a sentence done and not done.
 */
export const ACTIVITIES: Record<EngagementActivity, { option: string; did: string; didNot: string }> = {
  opened_or_clicked: { option: 'open or click a broadcast', did: 'opened or clicked a broadcast', didNot: 'neither opened nor clicked a broadcast' },
  opened: { option: 'open a broadcast', did: 'opened a broadcast', didNot: 'opened no broadcast' },
  clicked: { option: 'click a link in a broadcast', did: 'clicked a link in a broadcast', didNot: 'clicked no link in a broadcast' },
  delivered: { option: 'receive a broadcast', did: 'received a broadcast', didNot: 'received no broadcast' },
};

export const withinWords = (days: number) => (days === 1 ? 'in the last day' : `in the last ${days.toLocaleString('en')} days`);

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One condition as a sentence: `plan is "Pro"`, `Opened or clicked a broadcast in the last 30 days`. */
export function conditionWords(condition: SegmentCondition, properties: ContactProperty[] | undefined): string {
  if (condition.type === 'engagement') {
    const activity = ACTIVITIES[condition.activity];
    return `${capitalized(condition.negate ? activity.didNot : activity.did)} ${withinWords(condition.withinDays)}`;
  }
  const type = properties?.find((property) => property.key === condition.key)?.type;
  const words = `${condition.key} ${operatorWords(condition.operator, type)}`;
  if (!takesValue(condition.operator) || condition.value === undefined) return words;
  return `${words} ${typeof condition.value === 'string' && type !== 'date' ? JSON.stringify(condition.value) : valueText(condition.value)}`;
}

/** How the conditions combine: every one, or at least one. */
export const matchWords = (match: SegmentRules['match']) => (match === 'all' ? 'Contacts who match all of these' : 'Contacts who match any of these');
