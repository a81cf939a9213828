import fc from 'fast-check';
import { hostileValue } from './arbitraries';

type Json = unknown;

/** Every place inside a JSON value, as a path of keys and indexes (the root is []). */
function places(value: Json, path: Array<string | number> = [], out: Array<Array<string | number>> = [], depth = 0): Array<Array<string | number>> {
  out.push(path);
  if (depth > 6) return out;
  if (Array.isArray(value)) value.forEach((item, index) => places(item, [...path, index], out, depth + 1));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) places(item, [...path, key], out, depth + 1);
  return out;
}

function withChange(value: Json, path: Array<string | number>, change: (parent: any, key: string | number) => void): Json {
  const copy = structuredClone(value) as any;
  if (path.length === 0) return copy;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  change(parent, path[path.length - 1]!);
  return copy;
}

/**
 * A valid body broken in one of the ways the issue lists: a value replaced by a wrong type or a
 * hostile string, a field removed, an unknown property added at some depth, the whole body swapped
 * for an array, a scalar or something else.
 */
export const mutatedBody = (valid: fc.Arbitrary<Json>): fc.Arbitrary<Json> =>
  valid.chain((body) => {
    const all = places(body);
    const inner = all.filter((path) => path.length > 0);
    const objects = all.filter((path) => {
      let node: any = body;
      for (const key of path) node = node[key];
      return node !== null && typeof node === 'object' && !Array.isArray(node);
    });
    const options: Array<fc.Arbitrary<Json>> = [hostileValue, fc.constant([body]), fc.constant(JSON.stringify(body))];
    if (inner.length > 0) {
      options.push(
        fc.tuple(fc.constantFrom(...inner), hostileValue).map(([path, replacement]) => withChange(body, path, (parent, key) => (parent[key] = replacement))),
        fc.constantFrom(...inner).map((path) => withChange(body, path, (parent, key) => (Array.isArray(parent) ? parent.splice(Number(key), 1) : delete parent[key]))),
      );
    }
    if (objects.length > 0) {
      options.push(
        fc
          .tuple(fc.constantFrom(...objects), fc.constantFrom('unknown_property', 'id', '__proto__', 'constructor', 'Extra'), hostileValue)
          .map(([path, name, extra]) =>
            path.length === 0
              ? { ...(body as object), [name]: extra }
              : withChange(body, path, (parent, key) => {
                  parent[key] = { ...parent[key], [name]: extra };
                }),
          ),
      );
    }
    return fc.oneof(...options);
  });
