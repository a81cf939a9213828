/**
 * The dashboard's organization switcher: the `eumail_org` cookie names the organization the
 * person last chose. Only a hint: the session context honours it only while the person belongs to
 * that organization (docs/teams.md says why a cookie rather than a session column).
 */
export const ACTIVE_ORGANIZATION_COOKIE = 'eumail_org';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function activeOrganizationOf(headers: Headers): string | null {
  const cookie = headers.get('cookie') ?? '';
  const match = new RegExp(`(?:^|;\\s*)${ACTIVE_ORGANIZATION_COOKIE}=([^;]*)`).exec(cookie);
  const value = match?.[1] ? decodeURIComponent(match[1]) : null;
  return value && UUID.test(value) ? value : null;
}
