// The vocabulary of an organization's standing, declared once. Imports nothing.

/** What an operator may set an account to (`npm run admin -- org:status`). */
export const ORGANIZATION_STATUSES = ['active', 'restricted', 'suspended', 'paused'] as const;
export type OrganizationStatus = (typeof ORGANIZATION_STATUSES)[number];

export const isOrganizationStatus = (value: string): value is OrganizationStatus => (ORGANIZATION_STATUSES as readonly string[]).includes(value);

/**
 * Why an organization is not active: the operator's decision (`org:status`), or a renewal left
 * unpaid past its grace period (services/billing/payment-standing.ts). Paying lifts only the second.
 */
export const STATUS_CAUSES = ['operator', 'non_payment'] as const;
export type StatusCause = (typeof STATUS_CAUSES)[number];
