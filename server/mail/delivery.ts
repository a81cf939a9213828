import { domainToASCII } from 'node:url';
import nodemailer from 'nodemailer';
import type { EnvelopeRecipient, OutgoingMessage } from './message';
import { signMessage, type DkimSigning } from './dkim';
import { deliverToDomain } from './mx';
import { closeMxSessions } from './mx-sessions';
import type { DeliveryOutcome } from './outcomes';
import { closeRelayPools as closeRelay, deliverViaRelay } from './relay';
import type { ShapingGate } from './shaping';
import { DEFAULT_TIMEOUTS, type DeliveryTimeouts } from './smtp-session';

export type { DeliveryOutcome } from './outcomes';
export type { DeliveryTimeouts } from './smtp-session';

/** Closes every pooled SMTP connection, the relay's and the MX hosts' (on shutdown, and between tests). */
export function closeRelayPools(): void {
  closeRelay();
  closeMxSessions();
}

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
  /** Traffic shaping per provider and sending domain (direct MX only: a smarthost shapes its own). */
  shaping?: ShapingGate;
}

// Renders without sending: CRLF, the form it goes on the wire in.
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/**
 * The message as it goes on the wire, DKIM-signed. Signed here rather than by nodemailer, whose
 * signer streams the message through several passes and signs on the event loop; throws when the
 * key cannot sign (an unsigned message must not go out).
 */
export async function compileMessage(message: OutgoingMessage): Promise<Buffer> {
  const { dkim, ...mail } = message.mail;
  // The envelope only satisfies the composer (a Bcc-only email has no header recipients); it is not sent.
  const envelope = { from: message.recipients[0]?.mailFrom ?? '', to: message.recipients.map((r) => r.address) };
  const info = await composer.sendMail({ ...mail, envelope });
  const raw = info.message as Buffer;
  if (!dkim) return raw;
  const { domainName, keySelector, privateKey, headerFieldNames } = dkim as DkimSigning;
  try {
    return await signMessage(raw, { domainName, keySelector, privateKey, headerFieldNames });
  } catch (error) {
    throw new Error(`DKIM signing failed for ${message.messageId}: the private key was not usable`, { cause: error });
  }
}

const domainOf = (address: string) => domainToASCII(address.slice(address.lastIndexOf('@') + 1).toLowerCase());

/**
 * Sends one email to its recipients (all of `message.recipients`; pass a filtered copy to retry only
 * the deferred ones) and answers one outcome per recipient, in the same order. Never throws for a
 * refusal or a network failure: those are outcomes.
 */
export async function deliver(message: OutgoingMessage, options: DeliveryOptions): Promise<DeliveryOutcome[]> {
  if (message.recipients.length === 0) return [];
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  if (options.relayUrl) {
    const outcomes = await deliverViaRelay(options.relayUrl, message.recipients, await compileMessage(message), options.heloName, timeouts);
    return outcomes.map((outcome) => ({ ...outcome, via: 'relay' as const }));
  }

  const byDomain = new Map<string, EnvelopeRecipient[]>();
  const invalid: DeliveryOutcome[] = [];
  for (const recipient of message.recipients) {
    const domain = recipient.address.includes('@') ? domainOf(recipient.address) : '';
    if (!domain) invalid.push({ recipient: recipient.address, outcome: 'bounced', response: `${recipient.address} is not a deliverable address` });
    else byDomain.set(domain, [...(byDomain.get(domain) ?? []), recipient]);
  }
  // The sending domain is the Message-ID's (`<emailId@domain>`), the domain the mail is signed for.
  const sendingDomain = message.messageId.slice(message.messageId.lastIndexOf('@') + 1).replace(/>$/, '').toLowerCase();
  const mx = {
    dnsServers: options.dnsServers,
    port: options.mxPort,
    heloName: options.heloName,
    timeouts,
    allowPrivateCidrs: options.allowPrivateCidrs ?? [],
    ...(options.shaping ? { shaping: { gate: options.shaping, sendingDomain } } : {}),
  };
  // Rendered and signed once, when the first domain needs it; with every recipient held by traffic
  // shaping, not at all.
  let compiled: Promise<Buffer> | null = null;
  const raw = () => (compiled ??= compileMessage(message));
  const perDomain = await Promise.all([...byDomain].map(([domain, recipients]) => deliverToDomain(domain, recipients, raw, mx)));
  // Nothing was sent (no route, say), but a message that cannot be built or signed still throws, as it always has.
  if (!compiled && [...invalid, ...perDomain.flat()].some((outcome) => !outcome.held)) await raw();
  const found = new Map([...invalid, ...perDomain.flat()].map((outcome) => [outcome.recipient, outcome]));
  return message.recipients.map((recipient) => ({ ...found.get(recipient.address)!, via: 'mx' as const }));
}
