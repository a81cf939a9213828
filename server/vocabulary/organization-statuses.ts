// The vocabulary of an organization's standing, declared once. Imports nothing.

/** What an operator may set an account to (`npm run admin -- org:status`). */
export const ORGANIZATION_STATUSES = ['active', 'restricted', 'suspended', 'paused'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

export const isOrganizationStatus = (value: string): value is OrganizationStatus => (ORGANIZATION_STATUSES as readonly string[]).includes(value);
