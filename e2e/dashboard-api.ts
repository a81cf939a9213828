import { expect, type Page } from '@playwright/test';
import type { DnsServer } from '../test/support/dns';
import { publishRecords } from '../test/support/domains';

/** The dashboard's own tRPC API, called with the signed-in page's session: setup that a spec does not test through the UI. */
export async function trpcMutation<T>(page: Page, path: string, input: unknown): Promise<T> {
  const response = await page.request.post(`/api/trpc/${path}`, { data: input });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data;
}

export async function trpcQuery<T>(page: Page, path: string, input: unknown): Promise<T> {
  const response = await page.request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result.data;
}

export const domainName = () => `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.example.com`;

/** Registers a domain with the dashboard's own API, publishes its records on the spec's DNS server, and waits until it is verified. */
export async function verifiedDomain(page: Page, dns: DnsServer, tracking?: { open_tracking: boolean; click_tracking: boolean }): Promise<string> {
  const name = domainName();
  const domain = await trpcMutation<{ id: string; records: Parameters<typeof publishRecords>[1] }>(page, 'domains.create', { name, ...tracking });
  publishRecords(dns, domain.records);
  await trpcMutation(page, 'domains.verify', { id: domain.id });
  // The check runs in the server's runner: under a loaded CI run it once stayed pending for the
  // whole wait, so a domain still pending is asked to be checked again every few seconds, as a
  // person would press "Verify" again.
  let askedAt = Date.now();
  await expect
    .poll(
      async () => {
        const { status } = await trpcQuery<{ status: string }>(page, 'domains.get', { id: domain.id });
        if (status === 'pending' && Date.now() - askedAt > 5_000) {
          askedAt = Date.now();
          await trpcMutation(page, 'domains.verify', { id: domain.id });
        }
        return status;
      },
      { timeout: 45_000 },
    )
    .toBe('verified');
  return name;
}
