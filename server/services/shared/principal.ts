import type { Mode, Permission } from '../../vocabulary/api-keys';
import type { Role } from '../../vocabulary/roles';

export type { Mode, Permission };

/** Where a request came from, as the edge decided it: what the audit log records beside a change. */
export interface RequestOrigin {
  /** The client's address (TRUSTED_PROXY_CIDRS decides which hop that is); null when unknown. */
  address: string | null;
  userAgent: string | null;
}

/** Who is calling: an API key, or a person signed in to the dashboard (acting within their role). */
export interface Principal {
  organizationId: string;
  permission: Permission;
  mode: Mode;
  keyId: string | null;
  domainId: string | null;
  userId: string | null;
  plan: string;
  rateLimitOverride: number | null;
  /**
   * A person whose organization requires two-factor sign-in and who has not set it up: every
   * dashboard procedure but the few that set it up refuses them (server/trpc/procedures.ts).
   */
  twoFactorSetUpPending?: boolean;
  /**
   * A signed-in person's role in this organization (server/vocabulary/dashboard-access.ts says what
   * it may call); absent for API keys, which keep their permission, and for the process itself.
   */
  role?: Role;
  /** Set by the edge that admitted the request; absent when a service is called from inside the process. */
  origin?: RequestOrigin;
  /** The dashboard session a signed-in person came with ("this device" on their account page); absent for API keys. */
  sessionId?: string;
}

/** The organization itself sending its own list mail, live: a broadcast's copies, a form's confirmation, a re-engagement email. No key, no member. */
export const organizationPrincipal = (organizationId: string, plan: string): Principal => ({
  organizationId,
  permission: 'full_access',
  mode: 'live',
  keyId: null,
  domainId: null,
  userId: null,
  plan,
  rateLimitOverride: null,
});
