import type SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

/** What happened to one recipient: the receiving server's answer, or why nobody answered. */
export interface DeliveryOutcome {
  recipient: string;
  /** delivered = 2xx after DATA; bounced = permanent (5xx, no such domain); deferred = try again later. */
  outcome: 'delivered' | 'bounced' | 'deferred';
  /** The SMTP reply code, when a server answered. */
  smtpCode?: number;
  /** Human-readable, naming the server: `mx.example.net [192.0.2.1] (TLS): 250 2.0.0 Ok: queued`. */
  response: string;
  /** The MX host or the relay that gave the answer. */
  host?: string;
  /** Tries of this delivery that came to nothing before this answer (another MX host, a failed TLS handshake), each as its response line. */
  earlierTries?: string[];
  /**
   * Not tried: its provider is paused or throttled for this sending domain (traffic shaping). The
   * outcome is `deferred`; the recipient is due again at `retryAt`, without an attempt counted.
   */
  held?: { retryAt: Date };
  /** Set by `deliver`: through SMTP_RELAY_URL, a 2xx only means the smarthost took the message. */
  via?: 'mx' | 'relay';
}

export type SmtpError = SMTPConnection.SMTPError & { command?: string; recipient?: string; rejectedErrors?: SmtpError[] };

export const codeOf = (response: string | undefined): number | undefined => {
  const match = /^([2-5]\d\d)/.exec(response ?? '');
  return match ? Number(match[1]) : undefined;
};

/** The server's reply line(s) on one line, as stored and shown. */
export const oneLine = (text: string) => text.replace(/\s*\r?\n\s*/g, ' ').trim();

/** Whether the server answered this transaction itself (so the connection is still usable after RSET). */
export const isTransactionAnswer = (error: SmtpError) =>
  typeof error.responseCode === 'number' && ['MAIL FROM', 'RCPT TO', 'DATA'].includes(error.command ?? '');

/**
 * A refusal nodemailer raised itself before the transaction: an address it cannot put in RCPT TO,
 * or a message over the SIZE the server advertised. Sending again would fail the same way.
 */
export const isLocalEnvelopeError = (error: SmtpError) =>
  error.responseCode === undefined && (error.code === 'EENVELOPE' || (error.code === 'EMESSAGE' && /larger than allowed/.test(error.message)));

/** 5xx is permanent, 4xx temporary; no answer at all (refused, timeout, TLS) is temporary too. */
export function outcomeOfError(recipient: string, error: SmtpError, where: { host: string; label: string }): DeliveryOutcome {
  // For a refused RCPT nodemailer keeps the server's own line in rejectedErrors; prefer it.
  const own = error.rejectedErrors?.find((e) => e.recipient === recipient) ?? error;
  const code = own.responseCode ?? codeOf(own.response);
  const text = own.response ? oneLine(own.response) : `${own.code ?? 'error'}: ${own.message}`;
  if (isLocalEnvelopeError(own)) return { recipient, outcome: 'bounced', response: `not sent: ${own.message}`, host: where.host };
  return {
    recipient,
    outcome: code !== undefined && code >= 500 ? 'bounced' : 'deferred',
    ...(code !== undefined ? { smtpCode: code } : {}),
    response: `${where.label}: ${text}`,
    host: where.host,
  };
}

export function outcomeOfInfo(recipient: string, info: SMTPConnection.SentMessageInfo, where: { host: string; label: string }): DeliveryOutcome {
  const rejected = info.rejectedErrors?.find((e) => (e as SmtpError).recipient === recipient);
  if (rejected || (info.rejected ?? []).includes(recipient)) {
    return outcomeOfError(recipient, rejected ?? Object.assign(new Error('rejected'), { response: info.response }), where);
  }
  return { recipient, outcome: 'delivered', smtpCode: codeOf(info.response) ?? 250, response: `${where.label}: ${oneLine(info.response ?? '250')}`, host: where.host };
}
