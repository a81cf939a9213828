/**
 * What direct MX delivery asks of traffic shaping (services/delivery-shaping implements it): which
 * provider a domain's MX hosts belong to and its limits, whether one more transaction may go now,
 * and what each answer means for the provider. Kept to this shape so `server/mail` does not reach
 * up into the business rules; without a gate (the service's own mail, tests of the transport)
 * delivery goes as it always did.
 */

export interface ProviderLimits {
  /** SMTP connections open to the provider at once, per process. */
  connections: number;
  /** Transactions (one per recipient) on one connection before it is closed and a new one opened. */
  messagesPerConnection: number;
  /** Transactions per minute per sending domain; null: no limit until the replies ask for one. */
  messagesPerMinute: number | null;
}

export interface Provider {
  id: string;
  limits: ProviderLimits;
}

/** A recipient that was not tried: its provider is paused or throttled for this sending domain. */
export interface Hold {
  reason: string;
  retryAt: Date;
}

/** One answer of a provider's server, or a failure to reach it. */
export interface ProviderReply {
  smtpCode?: number;
  /** The server's words (or the socket error's) on one line. */
  text: string;
  /** nodemailer's error code for a failure without an answer (ECONNECTION, ETIMEDOUT, ...). */
  errorCode?: string;
  /** Our side of the connection, so a block that names it is seen as the service's. */
  localAddress?: string;
}

/** ok: nothing to change; slow: the provider asked us to send less; block: it refuses us for reputation. */
export type ReplyVerdict = 'ok' | 'slow' | 'block';

export interface ShapingGate {
  providerOf(domain: string, mxHosts: string[]): Provider;
  /** Before one transaction: null to go now, or why not (the recipient is held, untried). Takes the place it grants. */
  admit(provider: string, sendingDomain: string): Hold | null;
  observe(provider: string, sendingDomain: string, reply: ProviderReply): ReplyVerdict;
}
