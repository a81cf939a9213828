import { validationError } from '../../errors';
import type { TemplateVariables } from './render';

/**
 * The `variables` of a preview: a JSON object, URL-encoded in the query. Absent is no variables;
 * JSON that does not parse, or that is not an object, is a 400 naming `variables`.
 */
export function parseVariables(json: string | undefined): TemplateVariables {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw validationError('variables: is not valid JSON (give a URL-encoded JSON object such as {"name":"Ada"})');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw validationError('variables: must be a JSON object such as {"name":"Ada"}');
  return value as TemplateVariables;
}
