/**
 * A person's role in an organization, declared once: the members table's column, the
 * dashboard-access table (server/vocabulary/dashboard-access.ts), the team page's select.
 * API keys have no role: they keep their permission (full_access, sending_access).
 */
export const ROLES = ['owner', 'admin', 'developer', 'marketer', 'billing', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** What each role is for, in the team page's words. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: 'Everything, including billing, deleting the organization and transferring ownership',
  admin: 'Everything but billing and ownership; manages members below owner',
  developer: 'API keys, domains, webhooks, templates, sending, emails and events; reads contacts',
  marketer: 'Audiences and contacts, suppressions, templates and broadcasts',
  billing: 'Plans, usage and invoices; reads everything else but secrets',
  viewer: 'Reads everything but secrets',
};

/** The roles an owner or admin may give by invitation or role change: never owner (ownership is transferred). */
export const ASSIGNABLE_ROLES = ['admin', 'developer', 'marketer', 'billing', 'viewer'] as const satisfies readonly Role[];
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** Who manages the team (invitations, role changes, removals) and reads the audit log. */
export const TEAM_MANAGERS = ['owner', 'admin'] as const satisfies readonly Role[];

/** Who renames the organization and sets its notification address (docs/organization-settings.md); deleting it is the owner's alone. */
export const SETTINGS_MANAGERS = ['owner', 'admin'] as const satisfies readonly Role[];
