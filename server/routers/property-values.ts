import { z } from 'zod';

const propertyValue = z.union([z.string(), z.number(), z.boolean()]);

/** An own `__proto__` key: zod's records pass over it silently, so it is refused before them. */
const withoutProtoKey = (value: unknown) => !(value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, '__proto__'));

const SCALARS = [{ type: 'string', maxLength: 2000 }, { type: 'number' }, { type: 'boolean' }];

// The document describes the record the custom check stands before (it cannot describe a custom check itself).
const valuesOf = <T extends z.ZodType>(value: T, nullable: boolean) =>
  z
    .custom<Record<string, unknown>>(withoutProtoKey, { message: '"__proto__" is not a property key' })
    .meta({
      type: 'object',
      maxProperties: 100,
      propertyNames: { maxLength: 50 },
      additionalProperties: { anyOf: nullable ? [...SCALARS, { type: 'null' }] : SCALARS },
    })
    .pipe(z.record(z.string().max(50), value))
    .refine((values) => Object.keys(values).length <= 100, 'at most 100 values');

/**
 * Values of contact properties by key, as a body gives them (`properties`): at most 100, each a
 * string, number or boolean. The types are checked against the organization's properties by the
 * service.
 */
export const propertyValuesInput = valuesOf(propertyValue, false);

/** The same, where `null` clears a value (PATCH). */
export const clearablePropertyValuesInput = valuesOf(propertyValue.nullable(), true);

export const propertyValueOutput = propertyValue;
