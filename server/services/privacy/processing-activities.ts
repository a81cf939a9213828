import { eq } from 'drizzle-orm';
import { organizations, webhooks } from '@/db/schema';
import type { Deps } from '../../deps';
import { notFound } from '../../errors';
import { planOf } from '../plans/plans';
import type { Principal } from '../shared/principal';
import { processingActivities, retentionRules, type ProcessingActivity, type RetentionRule } from './activities';
import { requireOrganizationAuthority } from './authority';
import { retentionTermsOf, type RetentionTerms } from './retention-terms';
import { securityMeasures, type SecurityMeasure } from './security-measures';
import { PROCESSING_REGION, relayHostOf, SERVICE_NAME, serviceHosts, type ServiceHost } from './service-hosts';
import { subProcessors, type SubProcessor } from './sub-processors';

/** The organization's record of processing activities (GDPR Art. 30(2)), as this service keeps it for the organization. */
export interface ProcessingActivitiesRecord {
  generatedAt: string;
  region: string;
  controller: { organizationId: string; name: string; contact: string };
  processor: { name: string; baseUrl: string; hosts: ServiceHost[] };
  retention: RetentionTerms & { rules: RetentionRule[] };
  activities: ProcessingActivity[];
  subProcessors: SubProcessor[];
  securityMeasures: SecurityMeasure[];
}

/** For a full_access key, or the owner in the dashboard (authority.ts). */
export async function describeProcessingActivities(deps: Pick<Deps, 'db' | 'clock' | 'config'>, principal: Principal): Promise<ProcessingActivitiesRecord> {
  await requireOrganizationAuthority(deps, principal, 'Only the organization owner or an admin, or a full_access API key, can export the record of processing activities');
  const [[organization], endpoints] = await Promise.all([
    deps.db.select({ name: organizations.name, ownerEmail: organizations.ownerEmail, plan: organizations.plan }).from(organizations).where(eq(organizations.id, principal.organizationId)),
    deps.db.select({ url: webhooks.url }).from(webhooks).where(eq(webhooks.organizationId, principal.organizationId)),
  ]);
  if (!organization) throw notFound('Organization');
  const terms = retentionTermsOf(planOf(organization.plan));
  const webhookHosts = [...new Set(endpoints.map((endpoint) => new URL(endpoint.url).host))].sort();
  return {
    generatedAt: deps.clock.now().toISOString(),
    region: PROCESSING_REGION,
    controller: { organizationId: principal.organizationId, name: organization.name, contact: organization.ownerEmail },
    processor: { name: SERVICE_NAME, baseUrl: `${deps.config.appUrl}/api`, hosts: serviceHosts(deps.config) },
    retention: { ...terms, rules: retentionRules(terms) },
    activities: processingActivities(terms, webhookHosts, relayHostOf(deps.config)?.label ?? null),
    subProcessors: subProcessors(deps.config),
    securityMeasures: securityMeasures(deps.config),
  };
}
