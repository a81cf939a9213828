/** What became of an accepted form submission (docs/consent.md, "Forms"). */
export const FORM_SUBMISSION_STATUSES = [
  /** The contact is in the form's audience, subscribed, and in its topics. */
  'subscribed',
  /** A double opt-in form: nothing is subscribed until the person confirms from the mail. */
  'awaiting_confirmation',
  /** The address had opted out (everywhere, from the audience, or is suppressed): a form alone does not undo that. */
  'kept_opt_out',
] as const;
export type FormSubmissionStatus = (typeof FORM_SUBMISSION_STATUSES)[number];
