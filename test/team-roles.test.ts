import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/routers';
import type { Principal } from '@/server/services/shared/principal';
import type { Context } from '@/server/trpc/context';
import { createCallerFactory } from '@/server/trpc/init';
import { accessRuleOf, DASHBOARD_ACCESS } from '@/server/vocabulary/dashboard-access';
import { ROLES, type Role } from '@/server/vocabulary/roles';
import { startTestApp, type TestApp } from './support/app';
import { signUpPerson } from './support/dashboard-session';

// Issue 32: every dashboard procedure checks the person's role on the server. The rules are one
// table (server/vocabulary/dashboard-access.ts); this test enumerates every procedure of the app
// router against every role, so a new procedure without a declared rule fails here.

type Procedure = { _def: { type: 'query' | 'mutation' } };
const PROCEDURES = Object.keys((appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures).sort();
const ROLE_REFUSAL = /^Your role in this organization \(\w+\) does not allow this \([a-z, ]+ only\)$/;

let app: TestApp;
let organizationId: string;
let userId: string;
beforeAll(async () => {
  app = await startTestApp();
  await app.reset();
  const person = await signUpPerson(app, 'roles@example.test');
  organizationId = person.organizationId;
  userId = person.userId;
});
afterAll(() => app.close());

const createCaller = createCallerFactory(appRouter);

/** A person of `role` in the organization, as the session context makes one. */
function callerAs(role: Role) {
  const principal: Principal = { organizationId, permission: 'full_access', mode: 'live', keyId: null, domainId: null, userId, role, plan: 'free', rateLimitOverride: null };
  const ctx: Context = {
    deps: app.runtime.deps,
    requestId: 'roles',
    channel: 'dashboard',
    authenticate: async () => ({ principal, rateLimit: null }),
    setHeader: () => {},
    header: () => undefined,
  };
  return createCaller(ctx);
}

function call(role: Role, path: string): Promise<unknown> {
  const [namespace, name] = path.split('.') as [string, string];
  const caller = callerAs(role) as unknown as Record<string, Record<string, (input?: unknown) => Promise<unknown>>>;
  return caller[namespace]![name]!(undefined);
}

const refusals = PROCEDURES.flatMap((path) => {
  const rule = accessRuleOf(path);
  if (rule === undefined || rule === 'public') return [];
  return ROLES.filter((role) => !rule.includes(role)).map((role) => ({ path, role }));
});

describe('the dashboard-access table', () => {
  it('declares a rule for every procedure of the app router, and names no procedure that is gone', () => {
    expect(PROCEDURES.filter((path) => accessRuleOf(path) === undefined)).toEqual([]);
    expect(Object.keys(DASHBOARD_ACCESS).filter((path) => !PROCEDURES.includes(path))).toEqual([]);
  });

  it('gives the owner every procedure and hides secrets from billing and viewer', () => {
    expect(
      PROCEDURES.filter((path) => {
        const rule = accessRuleOf(path);
        return rule !== 'public' && !rule?.includes('owner');
      }),
    ).toEqual([]);
    for (const secret of ['apiKeys.create', 'webhooks.secret', 'webhooks.create', 'webhooks.rotateSecret']) {
      expect(accessRuleOf(secret), secret).not.toContain('billing');
      expect(accessRuleOf(secret), secret).not.toContain('viewer');
    }
    // The audit log is the owner's and admins'; billing is the owner's and the billing role's, never an admin's.
    expect(accessRuleOf('auditLog.list')).toEqual(['owner', 'admin']);
    expect(accessRuleOf('organization.changePlan')).toEqual(['owner', 'billing']);
    expect(accessRuleOf('usage.setOverage')).toEqual(['owner', 'billing']);
    expect(accessRuleOf('team.transferOwnership')).toEqual(['owner']);
    expect(accessRuleOf('organization.requestDeletion')).toEqual(['owner']);
    expect(accessRuleOf('organization.cancelDeletion')).toEqual(['owner']);
  });

  it('keeps sign-up forms and confirmation re-sends to the roles that run audiences, and lets every role read forms and the sunset preview (issue 37)', () => {
    // The refusals below follow the table; these pin the table itself, so a rule widened by mistake fails here.
    for (const write of ['forms.create', 'forms.update', 'forms.delete', 'contacts.resendConfirmation', 'segments.update']) {
      expect(accessRuleOf(write), write).toEqual(['owner', 'admin', 'marketer']);
    }
    for (const read of ['forms.list', 'forms.get', 'forms.submissions', 'audiences.sunsetPreview']) expect(accessRuleOf(read), read).toEqual(ROLES);
  });

  it('leaves a viewer nothing that writes: every mutation it may call is about the person, not the organization', () => {
    const viewerMutations = PROCEDURES.filter((path) => (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures[path]!._def.type === 'mutation')
      .filter((path) => {
        const rule = accessRuleOf(path);
        return rule === 'public' || rule?.includes('viewer');
      });
    expect(viewerMutations.sort()).toEqual(['account.signOutOtherSessions', 'account.signOutSession', 'organization.leave', 'team.acceptInvitation']);
  });
});

describe('a person whose role may not call a procedure is refused on the server', () => {
  it.each(refusals)('$role may not call $path', async ({ path, role }) => {
    await expect(call(role, path)).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(ROLE_REFUSAL) });
  });
});

describe('a person whose role may call a procedure gets past the role check', () => {
  const allowed = PROCEDURES.flatMap((path) => {
    const rule = accessRuleOf(path);
    if (rule === undefined || rule === 'public') return [];
    return rule.map((role) => ({ path, role }));
  });
  it('for every declared role of every procedure', async () => {
    for (const { path, role } of allowed) {
      // Called without input: most answer VALIDATION_ERROR or NOT_FOUND, none the role refusal.
      const outcome = await call(role, path).then(
        () => 'answered',
        (error: { message?: string }) => error.message ?? '',
      );
      expect(outcome, `${role} calling ${path}`).not.toMatch(ROLE_REFUSAL);
    }
  });
});
