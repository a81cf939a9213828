/**
 * How long a deleted organization waits before it is erased: a month, time for an owner back from
 * holidays to notice a deletion nobody meant (the notice mail says so) and to download the export.
 * Declared here so the settings page says the same number the sweep uses.
 */
export const DELETION_GRACE_DAYS = 30;
