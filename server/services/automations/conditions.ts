import { z } from 'zod';
import { AUTOMATION_LIMITS } from './limits';

// A condition in Resend's shape: `{ type: "rule", field, operator, value }`, or `and`/`or` groups
// of them. Resend nests groups without bound; here a group holds rules or groups of rules (two
// deep), which says any condition a person would write and keeps the schema free of recursion.

export const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'starts_with', 'ends_with', 'exists', 'is_empty'] as const;
type Operator = (typeof OPERATORS)[number];

/** What a step can read of the contact: these columns, and the organization's contact properties by key. */
export const CONTACT_FIELDS = ['id', 'email', 'first_name', 'last_name', 'unsubscribed', 'created_at'] as const;

/** Whether the run's previous email was opened (by a person: machine opens do not count) or clicked. */
export const EMAIL_FIELDS = ['email.opened', 'email.clicked'] as const;

const FIELD = /^(?:(?:contact|event)\.[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*|email\.(?:opened|clicked))$/;

const field = z
  .string()
  .max(200)
  .regex(FIELD, 'must be contact.<field or property key>, event.<payload field>, email.opened or email.clicked')
  .describe('contact.<field> (email, first_name, last_name, unsubscribed, or a contact property key), event.<payload field>, or email.opened / email.clicked (the run\'s previous email)');

const value = z.union([z.string().max(AUTOMATION_LIMITS.stringChars), z.number(), z.boolean(), z.null()]);

const VALUE_OF: Record<Operator, { kind: 'any' | 'number' | 'string' | 'none'; words: string }> = {
  eq: { kind: 'any', words: 'a value (a string, number, boolean or null)' },
  neq: { kind: 'any', words: 'a value (a string, number, boolean or null)' },
  gt: { kind: 'number', words: 'a number' },
  gte: { kind: 'number', words: 'a number' },
  lt: { kind: 'number', words: 'a number' },
  lte: { kind: 'number', words: 'a number' },
  contains: { kind: 'string', words: 'a string' },
  starts_with: { kind: 'string', words: 'a string' },
  ends_with: { kind: 'string', words: 'a string' },
  exists: { kind: 'none', words: 'no value' },
  is_empty: { kind: 'none', words: 'no value' },
};

const rule = z
  .strictObject({ type: z.literal('rule'), field, operator: z.enum(OPERATORS), value: value.optional() })
  .superRefine((input, ctx) => {
    const expected = VALUE_OF[input.operator];
    const given = input.value;
    const fits =
      expected.kind === 'none' ? given === undefined : expected.kind === 'any' ? given !== undefined : typeof given === expected.kind;
    if (!fits) ctx.addIssue({ code: 'custom', path: ['value'], message: `the operator ${input.operator} takes ${expected.words}` });
    if (input.field.startsWith('email.') && !(['eq', 'neq'].includes(input.operator) && typeof given === 'boolean')) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: `${input.field} is true or false: compare it with eq or neq and a boolean` });
    }
  });

const rules = <T extends z.ZodType>(item: T) =>
  z.array(item).min(1, 'must hold at least one rule').max(AUTOMATION_LIMITS.rulesPerGroup, `must hold at most ${AUTOMATION_LIMITS.rulesPerGroup} rules`);

const tooDeep = z.looseObject({ type: z.enum(['and', 'or']) }).superRefine((_, ctx) => {
  ctx.addIssue({ code: 'custom', message: 'groups nest two deep at most: this group may hold rules only' });
});
const innerGroup = z.strictObject({ type: z.enum(['and', 'or']), rules: rules(z.discriminatedUnion('type', [rule, tooDeep])) });
const group = z.strictObject({ type: z.enum(['and', 'or']), rules: rules(z.discriminatedUnion('type', [rule, innerGroup])) });

export const conditionSchema = z.discriminatedUnion('type', [rule, group]).describe('A rule, or an and/or group of rules (groups nest two deep)');
export type Condition = z.infer<typeof conditionSchema>;

type AnyCondition = { type: string; field?: string; rules?: AnyCondition[] };

/** Every field a condition reads, at any depth. */
export function conditionFields(condition: AnyCondition): string[] {
  if (condition.type === 'rule') return [condition.field!];
  return (condition.rules ?? []).flatMap(conditionFields);
}
