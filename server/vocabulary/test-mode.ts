// What test mode answers when asked to change live state, declared once: the tRPC door says it,
// and the dashboard recognises its own wording to offer the switch to Live beside it. Imports nothing.

/** To an API key: its mode was chosen at creation. */
export const TEST_KEY_REFUSAL = 'A test key cannot change live state';

/** To a signed-in person: no key is involved, the dashboard's switch is, and one click changes it. */
export const DASHBOARD_TEST_MODE_REFUSAL = 'The dashboard is in test mode, which cannot change what Live and Test share: switch to Live to make this change';
