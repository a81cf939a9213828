import { isIP } from 'node:net';
import nodemailer from 'nodemailer';
import { createResolver } from '../net/dns';
import { isPublicAddress } from '../net/ip-policy';
import { resolveHost } from '../net/resolver';

interface OutgoingSystemMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** Hands one of the service's own messages to an SMTP server; throws when it is not accepted. */
export interface SystemMailer {
  send(message: OutgoingSystemMessage): Promise<{ messageId: string }>;
}

/** Through the smarthost when SMTP_RELAY_URL is set, otherwise straight to the recipient domain's MX. */
export function createSystemMailer(options: { relayUrl?: string; dnsServers: string[]; mxPort: number; allowPrivateCidrs?: string[] }): SystemMailer {
  const relay = options.relayUrl ? nodemailer.createTransport(options.relayUrl) : null;
  return {
    async send(message) {
      if (relay) {
        const info = await relay.sendMail(message);
        return { messageId: info.messageId };
      }
      const domain = message.to.slice(message.to.lastIndexOf('@') + 1);
      const resolver = createResolver(options.dnsServers);
      const exchanges = await resolver.resolveMx(domain).catch(() => []);
      const hosts = exchanges.length > 0 ? exchanges.sort((a, b) => a.priority - b.priority).map((mx) => mx.exchange) : [domain];
      let lastError: unknown = new Error(`no mail exchanger for ${domain}`);
      for (const host of hosts) {
        // Resolved here, through DNS_SERVERS, and held to the private-address rule of MX delivery:
        // nodemailer given a host name would resolve it itself, through the system's resolver.
        const addresses = (isIP(host) ? [host] : await resolveHost(host, options.dnsServers).catch(() => [])).filter((ip) => isPublicAddress(ip, options.allowPrivateCidrs ?? []));
        const address = addresses[0];
        if (!address) {
          lastError = new Error(`no permitted address for the mail exchanger ${host}`);
          continue;
        }
        const transport = nodemailer.createTransport({ host: address, port: options.mxPort, secure: false, opportunisticTLS: true, tls: { rejectUnauthorized: false, servername: host } });
        try {
          const info = await transport.sendMail(message);
          return { messageId: info.messageId };
        } catch (error) {
          lastError = error;
        } finally {
          transport.close();
        }
      }
      throw lastError;
    },
  };
}
