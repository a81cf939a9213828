import { propertyValueOf } from '@/server/services/contact-properties/values';
import { fieldErrors } from '../../lib/field-errors';
import type { ContactProperty, PropertyType, PropertyValue } from './types';

/** What a property's type means to a person, with an example of a value. */
export const PROPERTY_TYPES: Array<{ type: PropertyType; label: string; example: string }> = [
  { type: 'string', label: 'Text', example: 'Pro' },
  { type: 'number', label: 'Number', example: '42' },
  { type: 'boolean', label: 'True or false', example: 'true' },
  { type: 'date', label: 'Date', example: '2026-11-30' },
];

export const typeLabel = (type: PropertyType) => PROPERTY_TYPES.find((entry) => entry.type === type)?.label ?? type;

/** A value as merge tags print it: the stored text, `true`/`false`, the number as written. */
export const valueText = (value: PropertyValue | null | undefined): string => (value === null || value === undefined ? '' : String(value));

/**
 * A stored value as its form field holds it: a date-time (given through the API, kept in UTC)
 * shows as its UTC day, the one thing a date field can show; it is sent again only if the day is
 * changed (see {@link propertyChanges}).
 */
export const inputText = (type: PropertyType, value: PropertyValue | null | undefined): string => {
  const text = valueText(value);
  return type === 'date' ? text.slice(0, 10) : text;
};

/**
 * A field's text as the value the API takes, or why it is none: empty is no value (`null`). The
 * text becomes JSON of the type (a number field holds text until parsed, and NaN would travel as
 * `null`), then meets the server's own check of the type, so its words are the server's.
 */
export function parseInput(type: PropertyType, text: string): { value: PropertyValue | null } | { error: string } {
  if (text === '') return { value: null };
  return propertyValueOf(type, jsonOf(type, text));
}

function jsonOf(type: PropertyType, text: string): unknown {
  if (type === 'number') return text.trim() === '' ? NaN : Number(text.trim());
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/**
 * The PATCH of a contact's values from the edit form: only the properties whose field changed,
 * `null` for a field emptied; or, for fields whose text is no value of the type, why.
 */
export function propertyChanges(
  properties: ContactProperty[],
  stored: Record<string, PropertyValue>,
  texts: Record<string, string>,
): { changes: Record<string, PropertyValue | null>; errors: Record<string, string> } {
  const changes: Record<string, PropertyValue | null> = {};
  const errors: Record<string, string> = {};
  for (const { key, type } of properties) {
    const text = texts[key] ?? '';
    if (text === inputText(type, stored[key])) continue;
    const parsed = parseInput(type, text);
    if ('error' in parsed) errors[key] = parsed.error;
    else if (parsed.value !== null || stored[key] !== undefined) changes[key] = parsed.value;
  }
  return { changes, errors };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The API's refusal of values split by property: it names each as `properties.<key>: why`; what
 * names no property of the form is left in `other`, for an alert.
 */
export function propertyErrors(error: unknown, keys: string[]): { byKey: Record<string, string>; other: unknown } {
  if (!error) return { byKey: {}, other: null };
  if (keys.length === 0) return { byKey: {}, other: error };
  const { byField, other } = fieldErrors(error, keys.map((key) => escape(`properties.${key}`)));
  const byKey: Record<string, string> = {};
  for (const [field, message] of Object.entries(byField)) if (message) byKey[field.slice('properties.'.length)] = message;
  return { byKey, other };
}
