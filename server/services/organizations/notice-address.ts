/**
 * Where the service's own mail to an organization goes (a key revoked, overage entered, a held
 * broadcast, a failing webhook): its confirmed notification address, the owner's until one is
 * confirmed. Mail that proves an address (the owner's confirmation link, a notification address's
 * own link) goes to that address instead, and never through this.
 */
export const noticeAddressOf = (organization: { ownerEmail: string; notificationEmail: string | null }): string => organization.notificationEmail ?? organization.ownerEmail;
