import { test } from '@playwright/test';
import { startDnsServer, type DnsServer } from '../test/support/dns';
import { startMxServer, type MxServer } from '../test/support/smtp-mx';
import { E2E_DNS_PORT, E2E_MX_PORT } from './loopback-ports';


/**
 * A spec's loopback mail world: the DNS server and the SMTP sink, started once for the spec and
 * stopped after it. Each test publishes its own records (`receiveAt`) after the records are cleared.
 */
export function useLoopbackMail(): { readonly dns: DnsServer; readonly mx: MxServer } {
  const world: { dns?: DnsServer; mx?: MxServer } = {};
  test.beforeAll(async () => {
    world.dns = await startDnsServer({ port: E2E_DNS_PORT });
    world.mx = await startMxServer({ port: E2E_MX_PORT });
  });
  test.afterAll(async () => {
    world.dns?.close();
    await world.mx?.close();
  });
  test.beforeEach(() => world.dns!.clear());
  return {
    get dns() {
      return world.dns!;
    },
    get mx() {
      return world.mx!;
    },
  };
}

/** The domains' mail goes to `host`, whose address is loopback: the sink receives it. */
export function receiveAt(dns: DnsServer, domains: string[], host: string): void {
  for (const domain of domains) dns.mx(domain, host);
  dns.a(host, '127.0.0.1');
}
