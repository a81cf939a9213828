import fc from 'fast-check';

/** A JSON Schema as the OpenAPI document writes it (the parts the fuzzer reads). */
export type Schema = Record<string, any>;

/** Resolves `#/components/schemas/...` references against the document. */
export const resolver = (document: Schema) => (schema: Schema | undefined): Schema => {
  let current = schema ?? {};
  while (current.$ref) current = document.components.schemas[String(current.$ref).split('/').pop()!];
  return current;
};

/** Values the schema accepts (as far as JSON Schema says: refinements in code may still refuse them). */
// The document types addresses and domain names as plain strings (their rules live in code); by
// their names the fuzzer knows to make real ones, so valid samples get past validation and the
// mutations of them test what lies behind it.
const ADDRESS_FIELDS = new Set(['from', 'to', 'cc', 'bcc', 'reply_to', 'email']);
const hinted = (name: string | undefined): fc.Arbitrary<unknown> | null => {
  if (name && ADDRESS_FIELDS.has(name)) return fc.emailAddress({ size: 'small' });
  if (name === 'name') return fc.oneof(fc.stringMatching(/^[a-z]{3,12}\.(com|eu|net)$/), fc.string({ minLength: 1, maxLength: 20 }));
  return null;
};

export function validValue(schema: Schema | undefined, resolve: (s: Schema | undefined) => Schema, depth = 0, name?: string): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((alternative: Schema) => validValue(alternative, resolve, depth, name)));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      // A pattern says more than a name: an automation's connection `from`/`to` is a step key, not an address.
      if (hinted(name) && typeof s.pattern !== 'string') return hinted(name)!;
      if (s.format === 'uuid') return fc.uuid();
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.contentEncoding === 'base64' || s.format === 'byte' || s.format === 'base64') return fc.base64String({ maxLength: 40 });
      if (typeof s.pattern === 'string') {
        const max = Math.min(s.maxLength ?? 40, 40);
        return fc.stringMatching(new RegExp(s.pattern)).filter((text) => text.length >= (s.minLength ?? 0) && text.length <= max);
      }
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1_000, max: s.maximum ?? 1_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1_000, max: s.maximum ?? 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(validValue(s.items, resolve, depth + 1, name), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object': {
      if (depth > 4) return fc.constant({});
      const properties: Record<string, Schema> = s.properties ?? {};
      const shape = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property, resolve, depth + 1, key)]));
      return fc.record(shape, { requiredKeys: (s.required ?? []).filter((name: string) => name in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * Stands for JSON nested 10,000 deep, which JSON.stringify itself cannot write: `toJson` puts the
 * raw text in its place.
 */
export const DEEP = '\u0001deeply-nested\u0001';
const DEEP_JSON = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;

/** The body as sent: JSON, with every DEEP marker replaced by the deep array. */
export const toJson = (value: unknown): string => JSON.stringify(value).replaceAll(JSON.stringify(DEEP), DEEP_JSON);

/** What a careless client or an attacker puts where a value goes. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    '',
    'x'.repeat(100 * 1024),
    'nul\u0000inside',
    'line\r\nbreak: injected',
    'lone \ud800 surrogate',
    '\u202eRTL override',
    'emoji 😀📨',
    -1,
    1.5,
    -0.25,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    [],
    {},
    true,
    false,
    'false',
    'true',
    '0',
    [{}],
    { nested: { deeper: null } },
  ),
  fc.constant(DEEP),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Path parameter values: of nothing, malformed, traversal, very long. */
export const hostilePathValue: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.constantFrom('%', '%zz', '%C0%AF', '..%2F..%2Fetc%2Fpasswd', 'not-a-uuid', '0', '%00', 'x'.repeat(64 * 1024), '%E0%A4%A'),
  // `.` and `..` as a whole segment are resolved by the URL itself (even as %2E): they never reach a server as written.
  fc
    .string({ maxLength: 20 })
    .filter((value) => !/^\.{1,2}$/.test(value))
    .map(encodeURIComponent),
);

/** Query parameter names that are properties of every JavaScript object. */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
