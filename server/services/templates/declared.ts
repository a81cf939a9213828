import type { DeclaredVariable } from '@/db/schema';
import { validationError } from '../../errors';

/** A send's or a preview's variables, by name (render.ts's TemplateVariables, which imports this file). */
type TemplateVariables = Record<string, unknown>;

export type { DeclaredVariable } from '@/db/schema';

/**
 * Variables declared Resend's way (`variables: [{ key, type, fallback_value }]` on create and
 * update, docs/templates.md): a type the values of a send are checked against, and a fallback used
 * when a send does not give the variable. A declared variable without a fallback must be given.
 */
export const DECLARED_LIMITS = {
  /** Resend's bound per template. */
  variables: 50,
  keyChars: 100,
  fallbackChars: 2_000,
} as const;

/** A key: a name Liquid reads as a variable. */
export const DECLARED_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Names Resend keeps for a broadcast's contact (and this service's broadcasts for theirs): a template may not declare them. */
const RESERVED = ['FIRST_NAME', 'LAST_NAME', 'EMAIL', 'UNSUBSCRIBE_URL', 'RESEND_UNSUBSCRIBE_URL', 'contact', 'this'];

/** The rules of a declared list beyond its shape (the edge checks that): a 400 naming the entry. */
export function checkDeclared(declared: DeclaredVariable[]): void {
  const seen = new Set<string>();
  declared.forEach((variable, index) => {
    const at = `variables.${index}`;
    if (RESERVED.includes(variable.key)) throw validationError(`${at}.key: ${variable.key} is reserved for a broadcast's contact (${RESERVED.join(', ')})`);
    if (seen.has(variable.key)) throw validationError(`${at}.key: ${variable.key} is declared twice`);
    seen.add(variable.key);
    if (variable.fallbackValue !== null && typeof variable.fallbackValue !== variable.type) {
      throw validationError(`${at}.fallback_value: must be a ${variable.type}, as the variable's type says`);
    }
  });
}

const given = (variables: TemplateVariables, name: string) => Object.hasOwn(variables, name) && variables[name] !== null && variables[name] !== undefined;

/** Whether a value is of the declared type: a JSON string, or a finite JSON number. */
const ofType = (value: unknown, type: DeclaredVariable['type']) => (type === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === 'string');

/**
 * The values a render uses: the given ones, each declared one checked against its type (a 400
 * naming it, `field` being how the request calls its variables), and the fallback of each declared
 * one not given.
 */
export function withDeclared(declared: DeclaredVariable[], variables: TemplateVariables, field: string): TemplateVariables {
  if (declared.length === 0) return variables;
  const values = { ...variables };
  for (const variable of declared) {
    if (given(variables, variable.key)) {
      if (!ofType(variables[variable.key], variable.type)) throw validationError(`${field}.${variable.key}: must be a ${variable.type}, as the template declares it`);
    } else if (variable.fallbackValue !== null) {
      values[variable.key] = variable.fallbackValue;
    }
  }
  return values;
}

/**
 * What a send must give and did not: the declared variables without a fallback, and the names the
 * template reads as `{{{NAME}}}` without one (unless declared with one). Resend refuses such a send;
 * Liquid's `{{ name }}` stays lenient and renders empty.
 */
export function missingForSend(declared: DeclaredVariable[], strict: ReadonlySet<string>, values: TemplateVariables): string[] {
  const falling = new Set(declared.filter((variable) => variable.fallbackValue !== null).map((variable) => variable.key));
  const needed = new Set([...declared.filter((variable) => variable.fallbackValue === null).map((variable) => variable.key), ...[...strict].filter((name) => !falling.has(name))]);
  return [...needed].filter((name) => !given(values, name));
}
