/**
 * The preview's variables, as the JSON a person types. Only whether it parses is checked here, so
 * the server is not asked with text it cannot read; what the JSON must be (an object) is the
 * server's rule, and its answer shows under the field.
 */
export type VariablesJson = { ok: true; json: string | undefined } | { ok: false; error: string };

/** The JSON to send (normalized, so spacing alone does not render again), nothing for an empty field, or why it does not parse. */
export function readVariables(text: string): VariablesJson {
  if (text.trim() === '') return { ok: true, json: undefined };
  try {
    return { ok: true, json: JSON.stringify(JSON.parse(text)) };
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A starting point: each variable of the template, empty, for the person to fill in. */
export const variablesSkeleton = (names: string[]) => JSON.stringify(Object.fromEntries(names.map((name) => [name, ''])), null, 2);

/**
 * The field after a save found new variables: they are added, empty, to the object typed so far
 * (its values kept). Text that is not a JSON object is left as it is.
 */
export function withVariables(text: string, names: string[]): string {
  if (text.trim() === '') return variablesSkeleton(names);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (!isObject(value)) return text;
  const added = names.filter((name) => !Object.hasOwn(value, name));
  if (added.length === 0) return text;
  return JSON.stringify({ ...value, ...Object.fromEntries(added.map((name) => [name, ''])) }, null, 2);
}
