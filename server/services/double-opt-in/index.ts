// Double opt-in (docs/consent.md, "Double opt-in"): the folder's door.
export { requestConfirmation, wakeConfirmation, type ConfirmationRequest, type ConfirmationSender, type RequestedConfirmation } from './request';
export { confirmSubscription, describeConfirmation, type ConfirmationOutcome, type ConfirmationState, type ConfirmingClient } from './confirm';
export { resendConfirmation, type ResentConfirmation } from './resend';
export { deleteUnconfirmedContacts } from './sweep';
export { CONFIRMATION_LINK_DAYS, CONFIRMATION_RESEND_LIMITS, UNCONFIRMED_CONTACT_DAYS } from './rules';
export { CONFIRM_SUBSCRIPTION_PATH } from './tokens';
export { checkConfirmationTemplate, confirmationTemplateOrBuiltIn } from './template';
export { doubleOptInOf, type DoubleOptInAsk } from './asked';
