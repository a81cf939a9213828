import { createApiKey } from '@/server/services/api-keys/keys';
import type { Permission, Mode } from '@/server/services/shared/principal';
import type { TestApp } from './app';

/** A key of the given permission and mode for an organization, made through the service. */
export async function keyFor(app: TestApp, organizationId: string, permission: Permission, mode: Mode, domainId?: string): Promise<string> {
  const created = await createApiKey(
    app.runtime.deps,
    { organizationId, permission: 'full_access', mode, keyId: null, domainId: null, userId: null, plan: '10k', rateLimitOverride: null },
    { name: `${permission}-${mode}`, permission, mode, domainId },
  );
  return created.key;
}
