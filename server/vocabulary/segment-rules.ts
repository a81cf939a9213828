// The words of a rule-based segment (docs/contacts.md), shared by its table and its service.

/** How a property condition compares a contact's value. */
export const PROPERTY_OPERATORS = ['equals', 'not_equals', 'greater_than', 'less_than', 'contains', 'exists', 'not_exists'] as const;
export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];

/** What a contact did, as its engagement summary keeps it (a person's opens and clicks, not a scanner's). */
export const ENGAGEMENT_ACTIVITIES = ['delivered', 'opened', 'clicked', 'opened_or_clicked'] as const;
export type EngagementActivity = (typeof ENGAGEMENT_ACTIVITIES)[number];

export type SegmentCondition =
  | { type: 'property'; key: string; operator: PropertyOperator; value?: string | number | boolean }
  /** The activity happened within the last `withinDays` days; with `negate`, it did not. */
  | { type: 'engagement'; activity: EngagementActivity; withinDays: number; negate?: boolean };

/** A segment defined by rules instead of by who was added (docs/contacts.md). */
export interface SegmentRules {
  match: 'all' | 'any';
  conditions: SegmentCondition[];
}

