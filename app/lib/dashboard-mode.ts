'use client';

import { useSyncExternalStore } from 'react';

/** The cookie the server reads to pick the session's mode (server/auth/session-context.ts): live unless it says test. */
export const DASHBOARD_MODE_COOKIE = 'eumail_mode';

export type DashboardMode = 'live' | 'test';

const read = (): DashboardMode => (new RegExp(`(?:^|;\\s*)${DASHBOARD_MODE_COOKIE}=test(?:;|$)`).test(document.cookie) ? 'test' : 'live');

/** Whether the dashboard shows live or test data, as the server will see it on the next request. */
export function useDashboardMode(): DashboardMode {
  return useSyncExternalStore(
    () => () => {},
    read,
    () => 'live',
  );
}

/** Shows the other world: the server reads the cookie, so the page reloads where it is. */
export function switchDashboardMode(next: DashboardMode): void {
  document.cookie = `${DASHBOARD_MODE_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
  window.location.reload();
}
