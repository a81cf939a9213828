import type { AnyTRPCProcedure } from '@trpc/server';

// What trpc-to-openapi's node adapter works out on every request (its input schema unwrapped, its
// coercion switched on, its array query keys), worked out once per operation when the route
// table is built, with the same rules, so the REST handler can call the procedure itself.

interface ZodLike {
  _zod?: { def?: { type?: string; in?: ZodLike; out?: ZodLike } };
  _def: { coerce?: boolean; getter?: () => ZodLike };
  def: { getter?: () => ZodLike; out?: ZodLike };
  shape?: Record<string, ZodLike>;
  element?: ZodLike;
  unwrap?: () => ZodLike;
}

const kind = (schema: ZodLike | undefined) => schema?._zod?.def?.type;

/** trpc-to-openapi's unwrapZodType: through optional, nullable, default, prefault, lazy, arrays and (preprocess) pipes. */
function unwrap(schema: ZodLike | undefined, throughPipes: boolean): ZodLike | undefined {
  switch (kind(schema)) {
    case 'array':
      return unwrap(schema!.element, throughPipes);
    case 'nullable':
    case 'optional':
    case 'default':
    case 'prefault':
      return unwrap(schema!.unwrap!(), throughPipes);
    case 'lazy':
      return unwrap(schema!.def.getter!(), throughPipes);
    case 'pipe':
      if (!throughPipes) return schema;
      return unwrap(kind(schema!._zod!.def!.out) === 'transform' ? schema!._zod!.def!.in : schema!.def.out, throughPipes);
    default:
      return schema;
  }
}

const COERCIBLE = new Set(['number', 'boolean', 'bigint', 'date']);

/** trpc-to-openapi's coerceSchema: every number, boolean, bigint and date of the object (and its nested objects) coerces. */
function coerce(object: ZodLike): void {
  for (const field of Object.values(object.shape ?? {})) {
    const inner = unwrap(field, false);
    if (inner && COERCIBLE.has(kind(inner) ?? '')) inner._def.coerce = true;
    else if (inner && kind(inner) === 'object') coerce(inner);
  }
}

/** Keys whose schema is an array (or an optional one): a single query value becomes a list of one. */
function arrayKeys(object: ZodLike): string[] {
  return Object.entries(object.shape ?? {})
    .filter(([, field]) => kind(field) === 'array' || (kind(field) === 'optional' && kind(field.unwrap!()) === 'array'))
    .map(([key]) => key);
}

/** How a REST request becomes the input of its procedure. */
export interface OpenApiInput {
  /** False for a procedure whose input is void: it gets no input at all. */
  takesInput: boolean;
  /** GET and DELETE: the keys whose single query value is wrapped in a list. */
  arrayKeys: string[];
  /** The input's own top-level field names (so a Resend query name the operation takes itself, as the event log's `after`, is left alone). */
  fields: string[];
}

/**
 * Prepares a procedure's input as trpc-to-openapi does before its first call; coercion is switched
 * on in the schema itself (as trpc-to-openapi does, for good, on the first request).
 */
export function prepareOpenApiInput(procedure: AnyTRPCProcedure): OpenApiInput {
  const inputs = (procedure._def as unknown as { inputs: ZodLike[] }).inputs;
  // Several inputs are merged into one object by trpc-to-openapi; none is an empty object.
  const parsers = inputs.length === 0 ? [] : inputs;
  const unwrapped = parsers.map((parser) => unwrap(parser, true));
  const voidLike = parsers.length === 1 && ['void', 'undefined', 'never'].includes(kind(unwrapped[0]) ?? '');
  const keys: string[] = [];
  const fields: string[] = [];
  for (const schema of unwrapped) {
    if (kind(schema) !== 'object') continue;
    keys.push(...arrayKeys(schema!));
    fields.push(...Object.keys(schema!.shape ?? {}));
    coerce(schema!);
  }
  return { takesInput: !voidLike, arrayKeys: keys, fields };
}

/**
 * The input as trpc-to-openapi lays it out: the body (or, without one, the query with a key's one
 * value as itself and several as a list), the path parameters over it, still URL-encoded (the
 * schemas decode them), and on a query a lone value of a list key made a list of one.
 */
export function restInput(source: { body: Record<string, unknown> } | { query: Record<string, string[]> }, pathParams: Record<string, string>, prepared: OpenApiInput): Record<string, unknown> {
  if ('body' in source) return { ...source.body, ...pathParams };
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(source.query)) {
    const values = source.query[key]!;
    query[key] = values.length === 1 ? values[0] : values;
  }
  const input: Record<string, unknown> = { ...query, ...pathParams };
  for (const key of prepared.arrayKeys) {
    if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
  }
  return input;
}
