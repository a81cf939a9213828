/** How often a screen refetches while the server is polling a domain's DNS, so its status flips without a reload. */
export const POLL_INTERVAL_MS = 5_000;
