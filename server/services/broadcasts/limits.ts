// Bounds of broadcasts the dashboard shows too. Imports nothing, so a client bundle can use it.

/** At most this many addresses per test send. */
export const TEST_RECIPIENTS_MAX = 5;

/** The preheader (`preview_text`): inboxes show a line or two of it; this leaves room for any language. */
export const PREVIEW_TEXT_CHARS = 500;
