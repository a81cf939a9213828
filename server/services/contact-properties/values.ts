import type { ContactPropertyType, ContactPropertyValue } from '@/db/schema';

/** A string value's longest form: a property is a fact about a contact, not a document. */
export const PROPERTY_STRING_MAX = 2_000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether a YYYY-MM-DD names a real day (2026-02-30 does not). */
const realDay = (value: string): boolean => {
  const parsed = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
};

/**
 * A value checked against its property's type, as it is stored: a date keeps a plain day as
 * `YYYY-MM-DD` and turns a date-time into UTC ISO 8601. Answers the reason it is refused otherwise.
 */
export function propertyValueOf(type: ContactPropertyType, value: unknown): { value: ContactPropertyValue } | { error: string } {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return { error: 'must be a string' };
      if (value.length > PROPERTY_STRING_MAX) return { error: `must be at most ${PROPERTY_STRING_MAX} characters` };
      return { value };
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return { error: 'must be a number' };
      return { value };
    case 'boolean':
      if (typeof value !== 'boolean') return { error: 'must be true or false' };
      return { value };
    case 'date': {
      if (typeof value !== 'string') return { error: 'must be a date (YYYY-MM-DD) or a date-time (ISO 8601 with a time zone)' };
      if (DATE_ONLY.test(value)) return realDay(value) ? { value } : { error: 'is not a real day' };
      if (!DATE_TIME.test(value) || !realDay(value.slice(0, 10))) return { error: 'must be a date (YYYY-MM-DD) or a date-time (ISO 8601 with a time zone)' };
      const parsed = new Date(value);
      return Number.isNaN(parsed.getTime()) ? { error: 'is not a real date-time' } : { value: parsed.toISOString() };
    }
  }
}
