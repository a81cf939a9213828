import { domainToASCII } from 'node:url';
import nodemailer from 'nodemailer';
import { createResolver } from '../net/dns';
import type { EnvelopeRecipient, OutgoingMessage } from './message';
import { deliverToDomain } from './mx';
import type { DeliveryOutcome } from './outcomes';
import { deliverViaRelay } from './relay';
import { DEFAULT_TIMEOUTS, type DeliveryTimeouts } from './smtp-session';

export type { DeliveryOutcome } from './outcomes';
export type { DeliveryTimeouts } from './smtp-session';
export { closeRelayPools } from './relay';

export interface DeliveryOptions {
  /** SMTP_RELAY_URL: every message goes through this smarthost (pooled); unset = straight to each domain's MX. */
  relayUrl?: string;
  /** DNS_SERVERS, for MX and MX host lookups. */
  dnsServers: string[];
  /** SMTP_MX_PORT. */
  mxPort: number;
  /** Our EHLO name (MAIL_HOST). */
  heloName: string;
  /** Non-public MX addresses that may still be used (tests, private networks); others are refused. */
  allowPrivateCidrs?: string[];
  timeouts?: Partial<DeliveryTimeouts>;
}

// Renders and signs without sending: CRLF, the form it goes on the wire and is stored in.
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/** The message as it goes on the wire, DKIM-signed. Throws when the key could not sign (nodemailer would send it unsigned). */
export async function compileMessage(message: OutgoingMessage): Promise<Buffer> {
  // The envelope only satisfies the composer (a Bcc-only email has no header recipients); it is not sent.
  const envelope = { from: message.recipients[0]?.mailFrom ?? '', to: message.recipients.map((r) => r.address) };
  const info = await composer.sendMail({ ...message.mail, envelope });
  const raw = info.message as Buffer;
  const headerEnd = raw.indexOf('\r\n\r\n');
  if (message.mail.dkim && !/^DKIM-Signature:/im.test(raw.subarray(0, headerEnd < 0 ? raw.length : headerEnd).toString('latin1'))) {
    throw new Error(`DKIM signing failed for ${message.messageId}: the private key was not usable`);
  }
  return raw;
}

const domainOf = (address: string) => domainToASCII(address.slice(address.lastIndexOf('@') + 1).toLowerCase());

/**
 * Sends one email to its recipients (all of `message.recipients`; pass a filtered copy to retry only
 * the deferred ones) and answers one outcome per recipient, in the same order. Never throws for a
 * refusal or a network failure: those are outcomes.
 */
export async function deliver(message: OutgoingMessage, options: DeliveryOptions): Promise<DeliveryOutcome[]> {
  if (message.recipients.length === 0) return [];
  const raw = await compileMessage(message);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  if (options.relayUrl) {
    const outcomes = await deliverViaRelay(options.relayUrl, message.recipients, raw, options.heloName, timeouts);
    return outcomes.map((outcome) => ({ ...outcome, via: 'relay' as const }));
  }

  const byDomain = new Map<string, EnvelopeRecipient[]>();
  const invalid: DeliveryOutcome[] = [];
  for (const recipient of message.recipients) {
    const domain = recipient.address.includes('@') ? domainOf(recipient.address) : '';
    if (!domain) invalid.push({ recipient: recipient.address, outcome: 'bounced', response: `${recipient.address} is not a deliverable address` });
    else byDomain.set(domain, [...(byDomain.get(domain) ?? []), recipient]);
  }
  const resolver = createResolver(options.dnsServers);
  const mx = { resolver, port: options.mxPort, heloName: options.heloName, timeouts, allowPrivateCidrs: options.allowPrivateCidrs ?? [] };
  const perDomain = await Promise.all([...byDomain].map(([domain, recipients]) => deliverToDomain(domain, recipients, raw, mx)));
  const found = new Map([...invalid, ...perDomain.flat()].map((outcome) => [outcome.recipient, outcome]));
  return message.recipients.map((recipient) => ({ ...found.get(recipient.address)!, via: 'mx' as const }));
}
