import type { FormRow } from './crud';

/**
 * What a valid submission of this form does now: `subscribe_now` (single opt-in: the contact joins
 * the audience subscribed, in one transaction with its ledger entries), or `await_confirmation`
 * (double opt-in: nothing is subscribed until the person confirms from the mail sent to the
 * address). The one place the submission path branches on double opt-in: `submitForm` then makes
 * the contact pending and mails the confirmation (`askToConfirm`, through double-opt-in's
 * `requestConfirmation`), and stores an `awaiting_confirmation` submission.
 */
export type SubmissionDecision = 'subscribe_now' | 'await_confirmation';

export function decideSubmission(form: Pick<FormRow, 'doubleOptIn'>): SubmissionDecision {
  return form.doubleOptIn ? 'await_confirmation' : 'subscribe_now';
}
