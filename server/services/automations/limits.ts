import { DAY_S, MINUTE_S } from './duration';

/** Bounds of a definition and of the organization's list (docs/automations.md, "Limits"). */
export const AUTOMATION_LIMITS = {
  nameChars: 100,
  steps: 100,
  connections: 200,
  keyChars: 64,
  eventNameChars: 100,
  /** Automations an organization keeps (enabled or not): a flat bound that keeps the list readable; the plan caps the enabled ones. */
  perOrganization: 200,
  /** Resend's bound for a delay and for a wait's timeout. */
  longestWaitS: 30 * DAY_S,
  /** Shorter than this, a loop through a delay would spin. */
  shortestWaitS: MINUTE_S,
  /** "Again after" of a trigger's re-entry: a year at most. */
  longestReEntryS: 365 * DAY_S,
  /** A condition's `and`/`or` groups hold this many rules, and nest two deep. */
  rulesPerGroup: 20,
  variables: 50,
  properties: 50,
  stringChars: 1_000,
} as const;
