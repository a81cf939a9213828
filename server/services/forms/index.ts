// The door of forms (docs/consent.md, "Forms"): what the router, the edge and the dashboard use.
export { createForm, deleteForm, getForm, listForms, updateForm, consentTextOf, type FormInput, type FormChanges, type FormView, type FormRow } from './crud';
export { listFormSubmissions, type FormSubmissionView } from './submissions';
export { formByKey, submitForm, submittedAddress, type RawSubmission, type SubmissionClient, type SubmitOutcome } from './submit';
export { decideSubmission, type SubmissionDecision } from './decision';
export { FILL_TIME_FIELD, HONEYPOT_FIELD, formSnippet, formEndpoint } from './snippet';
export { AUDIENCE_NAMES, FORM_LIMIT, CONSENT_TEXT_MAX, FORM_NAME_MAX, FORM_URL_MAX, ALLOWED_ORIGINS_MAX, FORM_PROPERTIES_MAX, FORM_TOPICS_MAX } from './rules';
export { forgetAddressInFormSubmissions } from './forget-address';
export { formSubmissionsOfAddress, type AddressSubmission } from './address-submissions';
export { deleteFormSubmissionsBefore } from './retention';
