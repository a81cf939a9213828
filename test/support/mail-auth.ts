import { authenticate } from 'mailauth';
import { createResolver } from '@/server/net/dns';

/**
 * mailauth's verdict on a received message (DKIM, SPF, DMARC; no ARC or BIMI), as the recipient's
 * MX would reach it from 127.0.0.1, reading DNS from the test's loopback server only.
 */
export function authenticateReceived(raw: string | Buffer, { dns, sender }: { dns: { address: string }; sender: string }) {
  const resolver = createResolver([dns.address]);
  return authenticate(raw, {
    resolver: (name: string, type: string) => resolver.resolve(name, type) as Promise<never>,
    sender,
    ip: '127.0.0.1',
    helo: 'mx.eumail.example',
    mta: 'mx.example.net',
    disableArc: true,
    disableBimi: true,
  });
}
