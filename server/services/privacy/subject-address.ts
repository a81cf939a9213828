import { validationError } from '../../errors';
import { AddressError } from '../shared/addresses';
import { suppressionAddress } from '../suppressions/crud';

/**
 * The data subject's address as every table stores it (lowercase, IDN domain as punycode), or a
 * 400 naming `email`. A bare address only, as the suppression list takes it: a display name is
 * refused rather than guessed at.
 */
export function subjectAddress(input: string): string {
  try {
    return suppressionAddress(input);
  } catch (error) {
    if (error instanceof AddressError) throw validationError(`email: ${error.message}`);
    throw error;
  }
}
