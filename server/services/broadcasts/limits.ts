// Bounds of broadcasts the dashboard shows too. Imports nothing, so a client bundle can use it.

/** At most this many addresses per test send. */
export const TEST_RECIPIENTS_MAX = 5;
