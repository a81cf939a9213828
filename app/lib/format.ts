const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** "21 Nov 2026", in UTC so that the server and the browser agree. */
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** "21 Nov 2026, 10:00 UTC", for tooltips. */
export const formatDateTime = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;
