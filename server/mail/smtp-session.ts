import type { Socket } from 'node:net';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';
import type { SmtpError } from './outcomes';

export interface DeliveryTimeouts {
  /** TCP connect. */
  connectMs: number;
  /** From connect to the server's 220 greeting. */
  greetingMs: number;
  /** Longest silence from the server at any point (nodemailer's socketTimeout). */
  idleMs: number;
  /** The whole SMTP session with one server, however slowly it trickles bytes. */
  sessionMs: number;
}

// Shorter than RFC 5321 §4.5.3.2's minimums (5 min greeting, 10 min after DATA): a job that waits
// that long holds a worker; a slow server gets the recipient deferred and retried later instead.
export const DEFAULT_TIMEOUTS: DeliveryTimeouts = { connectMs: 15_000, greetingMs: 30_000, idleMs: 60_000, sessionMs: 180_000 };

export interface SessionTarget {
  /** The MX host name: EHLO target label, TLS SNI. */
  host: string;
  /** The address we resolved for it through DNS_SERVERS (nodemailer's own lookup uses the system resolver). */
  ip: string;
  port: number;
  heloName: string;
  timeouts: DeliveryTimeouts;
  /** Skip STARTTLS: the retry after a TLS handshake failed, as MTAs do for opportunistic TLS. */
  plaintext?: boolean;
}

const failure = (code: string, message: string): SmtpError => Object.assign(new Error(message), { code });

/**
 * One SMTP connection to an MX, promisified. nodemailer reports a dead connection through the
 * 'error'/'end' events and then never calls the pending callback, so every step races them; the
 * session timer closes the socket so a server that never finishes cannot hold us. A pooled session
 * is only timed while in use (`watch`/`unwatch`): idle, the pool's own timer closes it.
 */
export class SmtpSession {
  private readonly connection: SMTPConnection;
  private fail!: (error: SmtpError) => void;
  private readonly failed: Promise<never>;
  private timer: NodeJS.Timeout | null = null;
  /** The connection failed, timed out or was closed: it must not be used again. */
  broken = false;

  constructor(readonly target: SessionTarget) {
    this.connection = new SMTPConnection({
      host: target.ip,
      port: target.port,
      name: target.heloName,
      secure: false,
      ignoreTLS: target.plaintext ?? false,
      // MX certificates are commonly self-signed or for another name; encryption still beats plaintext.
      opportunisticTLS: true,
      tls: { rejectUnauthorized: false, servername: target.host },
      connectionTimeout: target.timeouts.connectMs,
      greetingTimeout: target.timeouts.greetingMs,
      socketTimeout: target.timeouts.idleMs,
      logger: false,
    });
    this.failed = new Promise<never>((_, reject) => (this.fail = reject));
    this.failed.catch(() => {
      this.broken = true;
    });
    // Kept for the connection's whole life: a later 'error' with no listener would crash the process.
    // Only the first failure counts; the promise ignores the rest.
    this.connection.on('error', (error) => this.fail(this.upgrading ? Object.assign(error, { code: 'ETLS' }) : error));
    this.connection.on('end', () => this.fail(failure('ECONNECTION', 'Connection closed unexpectedly')));
    this.watch();
  }

  /** (Re)starts the session timer: one use of the session must end within sessionMs. */
  watch(): void {
    this.unwatch();
    this.timer = setTimeout(() => {
      this.fail(failure('ETIMEDOUT', `SMTP session exceeded ${this.target.timeouts.sessionMs} ms`));
      this.connection.close();
    }, this.target.timeouts.sessionMs);
  }

  unwatch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Whether a STARTTLS handshake is under way. One that fails (the server hangs up, or answers with
   * something that is not TLS) surfaces as the TLS socket's error, which nodemailer codes ESOCKET like
   * any socket error; while this is true the error is the handshake's, and is coded ETLS, so mx.ts
   * goes on in plaintext. nodemailer keeps the flag on the connection but does not type it.
   */
  private get upgrading(): boolean {
    return (this.connection as unknown as { upgrading?: boolean }).upgrading === true;
  }

  /** Our address on this connection: a block that names it names the service (traffic shaping). */
  get localAddress(): string | undefined {
    return (this.connection as unknown as { _socket?: Socket })._socket?.localAddress;
  }

  /** Whether STARTTLS was negotiated. */
  get secure(): boolean {
    return this.connection.secure;
  }

  private step<T>(start: (done: (error: SmtpError | null | undefined, value?: T) => void) => void): Promise<T> {
    const answered = new Promise<T>((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value as T))));
    return Promise.race([answered, this.failed]);
  }

  async connect(): Promise<void> {
    await this.step<void>((done) => this.connection.connect((error) => done(error)));
    // nodemailer leaves Nagle's algorithm on: the end of each message would wait for the server's
    // delayed ACK (40 ms on Linux). After STARTTLS the TLS socket passes this on to the TCP one.
    (this.connection as unknown as { _socket?: Socket })._socket?.setNoDelay(true);
  }

  send(envelope: { from: string; to: string[] }, raw: Buffer): Promise<SMTPConnection.SentMessageInfo> {
    return this.step((done) => this.connection.send(envelope, raw, done));
  }

  /** RSET after a refused transaction, so the next recipient starts clean. */
  reset(): Promise<void> {
    return this.step<void>((done) => this.connection.reset((error) => done(error)));
  }

  close(): void {
    this.unwatch();
    this.broken = true;
    // QUIT is a courtesy; close() right behind it frees the socket even if the server never answers.
    try {
      this.connection.quit();
    } catch {
      // the socket is already gone
    }
    this.connection.close();
  }
}
