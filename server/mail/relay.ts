import net from 'node:net';
import tls from 'node:tls';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { EnvelopeRecipient } from './message';
import { outcomeOfError, outcomeOfInfo, type DeliveryOutcome, type SmtpError } from './outcomes';
import type { DeliveryTimeouts } from './smtp-session';

// One pool per relay URL for the life of the process: a smarthost is worth keeping connections to.
const pools = new Map<string, Mail>();

type SocketCallback = (error: Error | null, socket?: { connection: net.Socket; secured?: boolean }) => void;

/**
 * Connects the pool's sockets ourselves so TCP_NODELAY is on: nodemailer leaves Nagle's algorithm
 * on, and the last segment of every message then waits for the relay's delayed ACK (40 ms on
 * Linux). nodemailer's own connect timeout does not cover a socket handed to it, hence ours.
 */
function connectNoDelay(options: SMTPPool.Options, callback: SocketCallback): void {
  const host = options.host ?? 'localhost';
  const port = Number(options.port) || (options.secure ? 465 : 587);
  const socket = net.connect({ host, port, noDelay: true });
  let secured: tls.TLSSocket | null = null;
  let settled = false;
  const finish = (error: Error | null) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    socket.off('error', finish);
    secured?.off('error', onTlsError);
    if (error) {
      (secured ?? socket).destroy();
      return callback(error);
    }
    // Past the handshake the TLS socket owns the connection and nodemailer listens on it.
    if (secured) socket.on('error', () => undefined);
    callback(null, secured ? { connection: secured, secured: true } : { connection: socket });
  };
  const onTlsError = (error: Error) => finish(Object.assign(error, { code: 'ETLS' }));
  const timer = setTimeout(() => finish(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })), options.connectionTimeout ?? 120_000);
  socket.once('error', finish);
  socket.once('connect', () => {
    if (!options.secure) return finish(null);
    const servername = options.tls?.servername ?? (net.isIP(host) ? undefined : host);
    secured = tls.connect({ ...options.tls, socket, host, ...(servername ? { servername } : {}) }, () => finish(null));
    secured.once('error', onTlsError);
  });
}

function poolFor(url: string, heloName: string, timeouts: DeliveryTimeouts): Mail {
  let pool = pools.get(url);
  if (!pool) {
    pool = nodemailer.createTransport({
      // host, port, smtps: → secure, credentials and nodemailer's query options (?tls.rejectUnauthorized=false) from the URL.
      ...parseConnectionUrl(url),
      pool: true,
      maxConnections: 5,
      maxMessages: 100,
      name: heloName,
      connectionTimeout: timeouts.connectMs,
      greetingTimeout: timeouts.greetingMs,
      socketTimeout: timeouts.idleMs,
      logger: false,
      getSocket: connectNoDelay,
    } as SMTPPool.Options);
    // Failures reach each sendMail's promise; an unheard 'error' event would crash the process.
    pool.on('error', () => undefined);
    pools.set(url, pool);
  }
  return pool;
}

/** Hands each recipient's transaction to the smarthost; its answer is the outcome (the relay's own DSNs come back by VERP). */
export async function deliverViaRelay(url: string, recipients: EnvelopeRecipient[], raw: Buffer, heloName: string, timeouts: DeliveryTimeouts): Promise<DeliveryOutcome[]> {
  const pool = poolFor(url, heloName, timeouts);
  // The label names the relay without the credentials the URL may carry.
  const { hostname, port } = new URL(url);
  const where = { host: hostname, label: `relay ${hostname}${port ? `:${port}` : ''}` };
  return Promise.all(
    recipients.map(async (recipient) => {
      try {
        const info = await pool.sendMail({ envelope: { from: recipient.mailFrom, to: [recipient.address] }, raw });
        return outcomeOfInfo(recipient.address, info, where);
      } catch (error) {
        return outcomeOfError(recipient.address, error as SmtpError, where);
      }
    }),
  );
}

/** Closes every relay pool (on shutdown, and between tests). */
export function closeRelayPools(): void {
  for (const pool of pools.values()) pool.close();
  pools.clear();
}
