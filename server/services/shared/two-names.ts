import { validationError } from '../../errors';

/**
 * A field Resend spells otherwise (docs/resend.md): our wire name and Resend's. A request may give
 * the field under either name, never under both, so a client written for either API works and no
 * request leaves us to guess which of two values it meant.
 */
export interface TwoNames {
  name: string;
  alias: string;
}

export interface TwoNamesProblem {
  /** The wire name the refusal points at: the alias when both were given, the name when neither was. */
  path: string;
  message: string;
}

/** What is wrong with the names a request gave the field under, or null: both, or (when the field is required) neither. */
export function twoNamesProblem(names: TwoNames, given: { name: unknown; alias: unknown }, options: { required: boolean }): TwoNamesProblem | null {
  if (given.name !== undefined && given.alias !== undefined) return { path: names.alias, message: `give ${names.name} or ${names.alias} (its other name), not both` };
  if (options.required && given.name === undefined && given.alias === undefined) return { path: names.name, message: `is required (or ${names.alias}, its other name)` };
  return null;
}

/** The value of an optional field given under either name (undefined: under neither); both is 400 VALIDATION_ERROR. */
export function eitherName<T>(names: TwoNames, value: T | undefined, aliasValue: T | undefined): T | undefined {
  const problem = twoNamesProblem(names, { name: value, alias: aliasValue }, { required: false });
  if (problem) throw validationError(`${problem.path}: ${problem.message}`);
  return value ?? aliasValue;
}
