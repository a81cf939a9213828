import type { AddressInfo } from 'node:net';
import { isDatabaseUnavailable } from '@/db/unavailable';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { Log } from '../log';
import type { Deps } from '../deps';
import { recordDeliveryReport } from '../services/bounces/reports';
import { mailtoToken, openUnsubscribeToken } from '../services/unsubscribe/tokens';
import { unsubscribe } from '../services/unsubscribe/unsubscribe';
import { parseReport } from './bounce-parser';
import { parseVerpAddress, verpKeyFrom } from './verp';

/**
 * The bounce receiver (BOUNCE_SMTP_PORT): the MX of every customer's return-path subdomain. It takes
 * mail for VERP addresses (`bounces+<emailId>.<index>.<tag>@…`, tag checked) and for the mailto
 * unsubscribe addresses of broadcasts (`u-<token>@…`, token checked), and refuses every other
 * recipient at RCPT TO, so it is no open relay and no mailbox. A delivery status notification
 * or an abuse report becomes a bounce, a delay or a complaint of the recipient the VERP address
 * names (services/bounces.ts); anything else (auto-replies, plain mail) is accepted and dropped.
 * Any message to an unsubscribe address unsubscribes the contact its token names, whatever it
 * says (services/unsubscribe).
 *
 * No AUTH. STARTTLS is offered (opportunistic: senders of bounces do not check certificates), with
 * smtp-server's built-in self-signed certificate unless `tls` is given.
 */

interface BounceServerOptions {
  port: number;
  host?: string;
  deps: Pick<Deps, 'db' | 'clock' | 'encryptionKey' | 'log' | 'jobs'>;
  /** One line per notable thing (refused recipients are not logged: that is scanners' noise). */
  log?: Log;
  /** Name in the greeting and EHLO answer (MAIL_HOST). */
  name?: string;
  /** Largest message accepted; reports are small, the original message inside them is often cut. */
  maxBytes?: number;
  /** PEM key and certificate for STARTTLS. */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

export interface BounceServer {
  port: number;
  close(): Promise<void>;
}

const BOUNCE_MAX_BYTES = 1_048_576;
/** A DSN goes to one return path; several recipients in one transaction are odd, many are abuse. */
const MAX_RECIPIENTS = 10;

const smtpError = (responseCode: number, message: string) => Object.assign(new Error(message), { responseCode });

export async function startBounceServer(options: BounceServerOptions): Promise<BounceServer> {
  const log = (options.log ?? options.deps.log).child({ part: 'bounce-receiver' });
  const key = verpKeyFrom(options.deps.encryptionKey);
  const maxBytes = options.maxBytes ?? BOUNCE_MAX_BYTES;

  const server = new SMTPServer({
    name: options.name,
    banner: 'bounce receiver',
    logger: false,
    authOptional: true,
    disabledCommands: ['AUTH'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : {}),
    size: maxBytes,
    maxClients: 200,
    // No reverse DNS of the client: nothing here needs it, and every lookup goes through DNS_SERVERS.
    disableReverseLookup: true,
    socketTimeout: 60_000,
    closeTimeout: 5_000,

    onMailFrom(_address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error | null) => void) {
      // Bounces come from the null sender, complaints from a feedback loop's address: any sender.
      callback();
    },

    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: (error?: Error | null) => void) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) return callback(smtpError(452, '4.5.3 Too many recipients'));
      const token = mailtoToken(address.address);
      const known = token === null ? parseVerpAddress(key, address.address) !== null : openUnsubscribeToken(options.deps.encryptionKey, token) !== null;
      if (!known) return callback(smtpError(550, '5.1.1 No such recipient here'));
      callback();
    },

    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        if (stream.sizeExceeded || size > maxBytes) return callback(smtpError(552, `5.3.4 Message too big (at most ${maxBytes} bytes)`));
        handleMessage(Buffer.concat(chunks), session).then(
          () => callback(),
          (error: unknown) => {
            // The database being away is an outage the operator already sees, not a fault of this report.
            if (isDatabaseUnavailable(error)) log.warn({ err: error }, 'report not recorded: the database is not reachable; the sender will try again');
            else log.error({ err: error }, 'recording a report failed');
            // The sender keeps the report and tries again later.
            callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
          },
        );
      });
    },
  });

  async function handleMessage(raw: Buffer, session: SMTPServerSession): Promise<void> {
    for (const token of session.envelope.rcptTo.map((rcpt) => mailtoToken(rcpt.address)).filter((t) => t !== null)) {
      const outcome = await unsubscribe(options.deps, token, { everything: false, via: 'mailto' });
      log.info({ status: outcome?.state.status ?? 'unknown token', changed: outcome?.changed ?? false }, 'unsubscribe by mail');
    }
    const targets = session.envelope.rcptTo.map((rcpt) => parseVerpAddress(key, rcpt.address)).filter((t) => t !== null);
    // Only unsubscribe addresses: no report to read.
    if (targets.length === 0) return;
    const report = await parseReport(raw);
    const from = session.envelope.mailFrom ? session.envelope.mailFrom.address || '<>' : '<>';
    if (!report) {
      log.info({ from, bytes: raw.length, emailIds: targets.map((t) => t.emailId) }, 'not a DSN or ARF report: dropped');
      return;
    }
    for (const target of targets) {
      const result = await recordDeliveryReport(options.deps, { emailId: target.emailId, recipientIndex: target.recipientIndex, ...report });
      if (result.recorded) log.info({ kind: report.kind, emailId: target.emailId, recipientIndex: target.recipientIndex }, 'report recorded');
      else log.info({ kind: report.kind, emailId: target.emailId, recipientIndex: target.recipientIndex, reason: result.reason }, `report not recorded: ${result.reason}`);
    }
  }

  server.on('error', (error) => log.warn({ err: error }, 'SMTP error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
