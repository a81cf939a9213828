import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { emailEvents, type contacts, type ContactPropertyValue } from '@/db/schema';

// A condition step's rules (conditions.ts), judged against what the run knows: the contact's fields
// and properties, the event's payload, and whether its previous email was opened or clicked.

type Rule = { type: 'rule'; field: string; operator: string; value?: string | number | boolean | null };
type Group = { type: 'and' | 'or'; rules: Array<Rule | Group> };
export type ConditionNode = Rule | Group;

/** The contact as steps read it. */
export interface RunContact {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  unsubscribed: boolean;
  createdAt: Date;
  properties: Record<string, ContactPropertyValue>;
}

/** A contact's row as steps read it. */
export const contactOf = (row: typeof contacts.$inferSelect): RunContact => ({
  id: row.id,
  email: row.email,
  firstName: row.firstName,
  lastName: row.lastName,
  unsubscribed: row.unsubscribed,
  createdAt: row.createdAt,
  properties: row.properties,
});

/** What a run's rules and variables read. */
export interface RunFacts {
  contact: RunContact;
  payload: Record<string, unknown>;
  email: { opened: boolean; clicked: boolean };
}

const CONTACT_COLUMNS: Record<string, (contact: RunContact) => unknown> = {
  id: (contact) => contact.id,
  email: (contact) => contact.email,
  first_name: (contact) => contact.firstName,
  last_name: (contact) => contact.lastName,
  unsubscribed: (contact) => contact.unsubscribed,
  created_at: (contact) => contact.createdAt.toISOString(),
};

/** The value a field names: `contact.<field or property>`, `event.<path>`, `email.opened`/`email.clicked`; undefined when absent. */
export function valueOf(facts: RunFacts, field: string): unknown {
  if (field === 'email.opened') return facts.email.opened;
  if (field === 'email.clicked') return facts.email.clicked;
  const [scope, ...path] = field.split('.');
  if (scope === 'contact') {
    const key = path.join('.');
    const column = CONTACT_COLUMNS[key];
    return column ? column(facts.contact) : facts.contact.properties[key];
  }
  let value: unknown = facts.payload;
  for (const part of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

function judgeRule(rule: Rule, facts: RunFacts): boolean {
  const value = valueOf(facts, rule.field);
  const expected = rule.value;
  switch (rule.operator) {
    case 'eq':
      return (value ?? null) === expected;
    case 'neq':
      return (value ?? null) !== expected;
    case 'gt':
      return typeof value === 'number' && value > (expected as number);
    case 'gte':
      return typeof value === 'number' && value >= (expected as number);
    case 'lt':
      return typeof value === 'number' && value < (expected as number);
    case 'lte':
      return typeof value === 'number' && value <= (expected as number);
    case 'contains':
      return typeof value === 'string' && value.toLowerCase().includes(String(expected).toLowerCase());
    case 'starts_with':
      return typeof value === 'string' && value.toLowerCase().startsWith(String(expected).toLowerCase());
    case 'ends_with':
      return typeof value === 'string' && value.toLowerCase().endsWith(String(expected).toLowerCase());
    case 'exists':
      return value !== undefined && value !== null;
    case 'is_empty':
      return isEmpty(value);
    default:
      return false;
  }
}

/** Whether the condition holds for these facts. */
export function judge(node: ConditionNode, facts: RunFacts): boolean {
  if (node.type === 'rule') return judgeRule(node, facts);
  return node.type === 'and' ? node.rules.every((rule) => judge(rule, facts)) : node.rules.some((rule) => judge(rule, facts));
}

/** Whether the run's previous email was opened by a person (machine opens do not count) and clicked (by a person). */
export async function engagementOf(db: Db, emailId: string | null): Promise<{ opened: boolean; clicked: boolean }> {
  if (!emailId) return { opened: false, clicked: false };
  const rows = await db
    .selectDistinct({ type: emailEvents.type })
    .from(emailEvents)
    .where(and(eq(emailEvents.emailId, emailId), inArray(emailEvents.type, ['email.opened', 'email.clicked']), sql`not coalesce((${emailEvents.data}->>'machine')::boolean, false)`));
  const types = new Set(rows.map((row) => row.type));
  return { opened: types.has('email.opened') || types.has('email.clicked'), clicked: types.has('email.clicked') };
}
