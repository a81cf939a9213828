import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { roleRefusalOf } from '@/app/(dashboard)/create-gate/role-refusal';
import { appRouter } from '@/server/routers';
import type { Principal } from '@/server/services/shared/principal';
import { requireRoleFor } from '@/server/trpc/procedures';
import { roleMayCall, type DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { ROLES, type Role } from '@/server/vocabulary/roles';

// Issue 32: the dashboard shows a write control only to a role that may call its procedure. The
// page asks `roleMayCall` (app/lib/use-role.ts's useMay, MayCall, the create gates, DeleteSection);
// the server's middleware is `requireRoleFor`. They must answer alike for every procedure and role.

const PROCEDURES = Object.keys((appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures).sort();

function person(role: Role): Principal {
  return { organizationId: 'org', permission: 'full_access', mode: 'live', keyId: null, domainId: null, userId: 'user', role, plan: 'free', rateLimitOverride: null };
}

function serverAllows(role: Role, path: string): boolean {
  try {
    requireRoleFor(person(role), path);
    return true;
  } catch {
    return false;
  }
}

/** Every procedure name the pages gate a control on: `procedure="…"`, `useMay('…')`, `useRoleRefusal('…')`, `procedure: '…'`. */
function gatedInPages(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(/(?:procedure=["']|useMay\(['"]|useRoleRefusal\(['"]|procedure: ['"])([a-zA-Z]+\.[a-zA-Z]+)['"]/g)) found.add(match[1]!);
      }
    }
  };
  walk('app');
  return found;
}

describe('the pages and the server read one rule', () => {
  it('answers alike, for every procedure of the app router and every role', () => {
    const disagreements = PROCEDURES.flatMap((path) => ROLES.filter((role) => roleMayCall(role, path) !== serverAllows(role, path)).map((role) => `${path} as ${role}`));
    expect(disagreements).toEqual([]);
    // Not vacuous: the table refuses some and allows others.
    expect(serverAllows('viewer', 'apiKeys.revoke')).toBe(false);
    expect(roleMayCall('viewer', 'apiKeys.revoke')).toBe(false);
    expect(serverAllows('developer', 'apiKeys.revoke')).toBe(true);
    expect(roleMayCall('developer', 'apiKeys.revoke')).toBe(true);
  });

  it('gates the pages on procedures that exist', () => {
    const gated = [...gatedInPages()];
    expect(gated.length).toBeGreaterThan(20);
    expect(gated.filter((path) => !PROCEDURES.includes(path))).toEqual([]);
  });

  it('gates the row-level writes of keys, domains and contacts on their procedures', () => {
    const gated = gatedInPages();
    for (const path of ['apiKeys.revoke', 'apiKeys.rename', 'domains.delete', 'domains.verify', 'domains.update', 'audiences.updateContact', 'audiences.deleteContact', 'webhooks.secret', 'templates.sendTest']) {
      expect(gated, path).toContain(path);
    }
  });

  it('says why a role may not, naming the roles that may, and nothing when it may', () => {
    expect(roleRefusalOf('viewer', 'apiKeys.revoke')).toBe('Your role (Viewer) cannot do this here: ask the owner, an admin or a developer.');
    expect(roleRefusalOf('admin', 'organization.changePlan')).toBe('Your role (Admin) cannot do this here: ask the owner or the billing role.');
    expect(roleRefusalOf('marketer', 'twoFactor.setRequirement' satisfies DashboardProcedure)).toBe('Your role (Marketer) cannot do this here: ask the owner.');
    expect(roleRefusalOf('developer', 'apiKeys.revoke')).toBeNull();
  });
});
