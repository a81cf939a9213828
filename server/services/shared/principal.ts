import type { Mode, Permission } from '../api-keys/vocabulary';

export type { Mode, Permission };

/** Who is calling: an API key, or a person signed in to the dashboard (acting with full access). */
export interface Principal {
  organizationId: string;
  permission: Permission;
  mode: Mode;
  keyId: string | null;
  domainId: string | null;
  userId: string | null;
  plan: string;
  rateLimitOverride: number | null;
}
