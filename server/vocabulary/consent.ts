// The vocabulary of the consent ledger (docs/consent.md), declared once. Imports nothing.

/**
 * What changed about a contact's consent. `subscribed`/`unsubscribed` are the contact's standing
 * with the whole organization (no audience, no topic) or with one audience; `topic_in`/`topic_out`
 * a topic's; `pending` a double opt-in asked for and `confirmed` its link clicked; `suppressed`
 * and `unsuppressed` the suppression list; `sunset`/`sunset_lifted` an audience's sunset policy.
 */
export const CONSENT_ACTIONS = [
  'subscribed',
  'unsubscribed',
  'pending',
  'confirmed',
  'topic_in',
  'topic_out',
  'suppressed',
  'unsuppressed',
  'sunset',
  'sunset_lifted',
] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];

/**
 * Through what the change came. `api` and `dashboard` are the organization's own acts (an API key,
 * a member); `import` a contact import; `form` a hosted sign-up form; `confirmation` a double
 * opt-in link; `one_click`, `preference_page` (the unsubscribe page, with or without topics),
 * `mailto` (mail to the List-Unsubscribe address), `complaint` and `bounce` the recipient or their
 * mailbox; `sunset` the audience's policy; `retention` the service's own clean-up. `unrecorded` is
 * `before_ledger` a standing the contact already had when the ledger began (migration 0042: how
 * it came is not known). `erasure` is a data-subject erasure's own clean-up, which appends nothing:
 * the address stays suppressed by its hashed entry. `unrecorded` is what the ledger writes when a change came by a path that did not say: a test walks every path
 * and none may write it.
 */
export const CONSENT_VIAS = [
  'api',
  'dashboard',
  'import',
  'form',
  'confirmation',
  'one_click',
  'preference_page',
  'mailto',
  'complaint',
  'bounce',
  'sunset',
  'retention',
  'before_ledger',
  'erasure',
  'unrecorded',
] as const;
export type ConsentVia = (typeof CONSENT_VIAS)[number];
