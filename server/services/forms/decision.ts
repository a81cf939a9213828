import type { FormRow } from './crud';

/**
 * What a valid submission of this form does now: `subscribe_now` (single opt-in: the contact joins
 * the audience subscribed, in one transaction with its ledger entries), or `await_confirmation`
 * (double opt-in: nothing is subscribed until the person confirms from the mail sent to the
 * address). The one place the submission path branches on double opt-in; the confirmation flow
 * (issue 37, item 2) connects here: `submitForm` stores an `awaiting_confirmation` submission with
 * the values given, and the flow's sending of the confirmation mail belongs beside that store.
 */
export type SubmissionDecision = 'subscribe_now' | 'await_confirmation';

export function decideSubmission(form: Pick<FormRow, 'doubleOptIn'>): SubmissionDecision {
  return form.doubleOptIn ? 'await_confirmation' : 'subscribe_now';
}
