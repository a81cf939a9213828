import { validationError } from '../errors';

/** Deeper than any body the API takes; far below what would overflow a stack when re-serialised. */
export const MAX_JSON_DEPTH = 64;

// NUL cannot be stored by Postgres in text or jsonb; a lone surrogate is not text at all (it
// cannot be encoded as UTF-8). Both are the client's error, named, before any rule sees them.
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkText(value: string, where: string): void {
  if (NUL.test(value)) throw validationError(`${where}: must not contain NUL characters`);
  if (LONE_SURROGATE.test(value)) throw validationError(`${where}: is not valid Unicode text (a lone surrogate)`);
}

const name = (path: string[], key: string) => (path.length === 0 ? key : `${path.join('.')}.${key}`);

const tooDeep = () => validationError(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`);

// JSON.parse keeps `__proto__` as a plain key, but the schemas drop it from a map (zod's record
// skips it) and any spread or assignment would turn it into a prototype: refused, as Fastify does,
// rather than accepted and silently lost.
const PROTOTYPE_KEY = '__proto__';
const prototypeKey = (where: string) => validationError(`${where}: "${PROTOTYPE_KEY}" is not accepted as a key`);

function checkEveryText(value: unknown, path: string[], depth: number): void {
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  if (typeof value === 'string') return checkText(value, path.length ? path.join('.') : 'body');
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkEveryText(item, [...path, String(index)], depth + 1));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === PROTOTYPE_KEY) throw prototypeKey(name(path, key));
      checkText(key, name(path, key));
      checkEveryText(item, [...path, key], depth + 1);
    }
  }
}

// The same walk for depth alone, with no path built: a batch's body is thousands of values.
function checkDepth(value: unknown, depth: number): void {
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) checkDepth(item, depth + 1);
    return;
  }
  for (const key in value) {
    if (key === PROTOTYPE_KEY) throw prototypeKey(`body: a key`);
    checkDepth((value as Record<string, unknown>)[key], depth + 1);
  }
}

/**
 * Every string and key of a parsed JSON body, and its depth, checked once for every operation.
 * `escapes: false` says the body's text holds no `\u` escape: its text came through a strict UTF-8
 * decoder, which lets no lone surrogate through, and JSON allows NUL in a string only as an
 * escape, so only the depth is left to check.
 */
export function checkJsonBody(value: unknown, options: { escapes: boolean } = { escapes: true }): void {
  if (options.escapes) checkEveryText(value, [], 0);
  else checkDepth(value, 0);
}

/**
 * The query as a procedure's input is laid out from (each key's values: server/http/openapi-input.ts), checked, in an object
 * without a prototype, so `__proto__`, `constructor` or `toString` are plain unknown keys.
 */
export function parseQuery(search: URLSearchParams): Record<string, string[]> {
  const query: Record<string, string[]> = Object.create(null);
  for (const [key, value] of search) {
    checkText(key, key);
    checkText(value, key);
    (query[key] ??= []).push(value);
  }
  return query;
}
