/** Resend's rule for a key: letters, digits and underscores, at most 50. */
export const PROPERTY_KEY_PATTERN = /^[A-Za-z0-9_]{1,50}$/;

/**
 * Names a contact already answers to (its own fields, and what merge tags read from it): a
 * property under one of them would be shadowed, or would shadow it.
 */
export const RESERVED_PROPERTY_KEYS = ['id', 'email', 'name', 'first_name', 'last_name', 'unsubscribed', 'subscribed', 'created_at', 'updated_at', 'segments', 'topics', 'properties'] as const;

/** Why a key cannot be a property's, or null when it can. */
export function propertyKeyProblem(key: string): string | null {
  if (!PROPERTY_KEY_PATTERN.test(key)) return 'must be 1 to 50 letters, digits or underscores';
  if ((RESERVED_PROPERTY_KEYS as readonly string[]).includes(key.toLowerCase())) return `"${key}" is a field every contact has; choose another key`;
  return null;
}
