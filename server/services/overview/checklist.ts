import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { apiKeys, domains, emails, organizations } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import type { Mode } from '../../vocabulary/api-keys';
import type { EmailStatus } from '../../vocabulary/email-statuses';
import type { Principal } from '../shared/principal';
import { setupDomain, type SetupDomain } from './setup-domain';

/** The getting-started steps, in order. */
export const SETUP_STEPS = ['domain', 'records', 'verified', 'api_key', 'email'] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

export interface Checklist {
  organizationId: string;
  /** The mode the dashboard shows: the snippets prefer a key of it. */
  mode: Mode;
  /** `{base_url}`: APP_URL and /api, what the snippets call. */
  apiBaseUrl: string;
  steps: Record<SetupStep, boolean>;
  /** Every step done. */
  done: boolean;
  domain: SetupDomain | null;
  /** The newest key not revoked, of the dashboard's mode when there is one: its name and stored prefix, never its secret. */
  key: { id: string; name: string; tokenStart: string; mode: Mode } | null;
  /** The newest email, of the dashboard's mode when there is one. */
  email: { id: string; mode: Mode; subject: string; status: EmailStatus; createdAt: Date } | null;
  /** What the snippets send: from the verified domain, else the sandbox domain, to the owner. */
  sender: { from: string; to: string; sandbox: boolean };
}

const otherMode = (mode: Mode): Mode => (mode === 'live' ? 'test' : 'live');

async function newestKey(deps: Pick<Deps, 'db'>, organizationId: string, mode: Mode) {
  const columns = { id: apiKeys.id, name: apiKeys.name, tokenStart: apiKeys.tokenStart, mode: apiKeys.mode };
  const live = and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt));
  const [[ofMode], [any]] = await Promise.all([
    deps.db.select(columns).from(apiKeys).where(and(live, eq(apiKeys.mode, mode))).orderBy(desc(apiKeys.id)).limit(1),
    deps.db.select(columns).from(apiKeys).where(and(live, ne(apiKeys.mode, mode))).orderBy(desc(apiKeys.id)).limit(1),
  ]);
  return ofMode ?? any ?? null;
}

async function newestEmail(deps: Pick<Deps, 'db'>, organizationId: string, mode: Mode) {
  // One read per mode, each the head of the (organization, mode, id) index.
  const read = (of: Mode) =>
    deps.db
      .select({ id: emails.id, mode: emails.mode, subject: emails.subject, status: emails.status, createdAt: emails.createdAt })
      .from(emails)
      .where(and(eq(emails.organizationId, organizationId), eq(emails.mode, of)))
      .orderBy(desc(emails.id))
      .limit(1);
  const [[ofMode], [other]] = await Promise.all([read(mode), read(otherMode(mode))]);
  return ofMode ?? other ?? null;
}

/**
 * Where the organization stands in getting started, from its rows alone (nothing stores a step as
 * done): a domain added, its required records found in DNS, the domain verified, a key, an email.
 * Domains are shared by both modes; a key or an email of either mode counts (docs/overview.md).
 */
export async function describeChecklist(deps: Pick<Deps, 'db' | 'config'>, principal: Pick<Principal, 'organizationId' | 'mode'>): Promise<Checklist> {
  const { organizationId, mode } = principal;
  const [[organization], domainRows, key, email] = await Promise.all([
    deps.db.select({ ownerEmail: organizations.ownerEmail }).from(organizations).where(eq(organizations.id, organizationId)),
    deps.db
      .select({ id: domains.id, name: domains.name, status: domains.status, recordStatuses: domains.recordStatuses })
      .from(domains)
      .where(eq(domains.organizationId, organizationId))
      .orderBy(desc(domains.id)),
    newestKey(deps, organizationId, mode),
    newestEmail(deps, organizationId, mode),
  ]);
  if (!organization) throw notFound('Organization');
  const domain = setupDomain(domainRows);
  const verified = domain?.status === 'verified';
  const steps: Record<SetupStep, boolean> = {
    domain: domain !== null,
    records: verified || (domain !== null && domain.recordsMissing.length === 0),
    verified,
    api_key: key !== null,
    email: email !== null,
  };
  // Until a domain is verified the sandbox sends (docs/domains.md): a test key to anyone, at once.
  const sandbox = !verified;
  const fromDomain = verified ? domain.name : deps.config.sandboxDomain;
  return {
    organizationId,
    mode,
    apiBaseUrl: `${deps.config.appUrl}/api`,
    steps,
    done: SETUP_STEPS.every((step) => steps[step]),
    domain,
    key,
    email,
    sender: { from: `onboarding@${fromDomain}`, to: organization.ownerEmail, sandbox },
  };
}
