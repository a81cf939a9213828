'use client';

/** The cookie the server reads to pick the organization a person acts for (server/auth/active-organization.ts). */
export const ACTIVE_ORGANIZATION_COOKIE = 'eumail_org';

/** Acts for another of the person's organizations: every query is the other organization's, so the dashboard starts over at its overview. */
export function switchOrganization(organizationId: string): void {
  document.cookie = `${ACTIVE_ORGANIZATION_COOKIE}=${organizationId}; path=/; max-age=31536000; samesite=lax`;
  window.location.assign('/');
}
