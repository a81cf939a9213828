// The vocabulary of API keys, declared once (see emails/statuses.ts). Imports nothing.

/** What a key may do: everything, or only send (the four send paths). */
export const API_KEY_PERMISSIONS = ['full_access', 'sending_access'] as const;
export type Permission = (typeof API_KEY_PERMISSIONS)[number];

/** Which world a key acts in: live mail, or the test mode that never delivers. */
export const API_KEY_MODES = ['live', 'test'] as const;
export type Mode = (typeof API_KEY_MODES)[number];

/**
 * The shape a key's REST answers take: the spec's (camelCase, `{ error, code }`), or Resend's
 * (snake_case, `object`, `{ object: "list", has_more, data }`, `{ statusCode, name, message }`), so
 * code written against Resend's API reads what it expects. docs/resend.md, "The dialect".
 */
export const API_KEY_DIALECTS = ['spec', 'resend'] as const;
export type Dialect = (typeof API_KEY_DIALECTS)[number];
