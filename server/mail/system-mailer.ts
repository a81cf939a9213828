import nodemailer from 'nodemailer';
import { createResolver } from '../net/dns';

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
export function createSystemMailer(options: { relayUrl?: string; dnsServers: string[]; mxPort: number }): SystemMailer {
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
        const transport = nodemailer.createTransport({ host, port: options.mxPort, secure: false, opportunisticTLS: true, tls: { rejectUnauthorized: false } });
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
