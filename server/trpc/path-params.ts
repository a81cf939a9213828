import { validationError } from '../errors';

/** A path parameter as the client meant it, or null when its percent-escapes are malformed (`%`, `%zz`, `%C0%AF`). */
export function decodePathParam(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/** Every path parameter of a matched route, decoded once at the edge: a malformed one is the client's error (400), never a 500. */
export function decodePathParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(params)) {
    const text = decodePathParam(value);
    if (text === null) throw validationError(`${name}: is not a valid URL-encoded value`);
    decoded[name] = text;
  }
  return decoded;
}
