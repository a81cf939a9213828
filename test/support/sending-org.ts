import { runAdminCommand } from '@/server/admin/commands';
import { DAY_MS } from '@/server/services/shared/time';
import { sweepDomainChecks } from '@/server/services/domains/verification';
import type { TestApp } from './app';
import { publishRecords } from './domains';

/**
 * A fresh organization that can send live mail, set up as a customer would: acme.example.com
 * registered, its records published on the test DNS and verified by the real check, and
 * example.net (the recipients' domain) with an MX.
 */
export async function sendingOrg(
  app: TestApp,
  options?: Parameters<TestApp['createOrg']>[0],
  domainName = 'acme.example.com',
): Promise<{ organizationId: string; apiKey: string; domainId: string }> {
  const org = await app.createOrg(options);
  const domain = await app.request('POST', '/api/domains', { key: org.apiKey, body: { name: domainName } });
  publishRecords(app.dns, domain.body.records);
  await sweepDomainChecks(app.runtime.deps);
  app.dns.mx('example.net', 'mx.example.net');
  return { ...org, domainId: domain.body.id };
}

/**
 * A sending organization on the 10k plan, 60 days old and past the list-send review, so a
 * broadcast or a list-shaped batch goes out whole: what every broadcast and contact suite starts from.
 */
export async function reviewedSendingOrg(app: TestApp, options?: Parameters<TestApp['createOrg']>[0]): Promise<{ organizationId: string; apiKey: string; domainId: string }> {
  const org = await sendingOrg(app, { plan: '10k', createdAt: new Date(app.clock.now().getTime() - 60 * DAY_MS), ...options });
  await runAdminCommand(app.runtime.deps, 'org:review', { org: org.organizationId, approve: true });
  return org;
}
