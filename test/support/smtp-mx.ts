import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerAuthenticationResponse, type SMTPServerSession } from 'smtp-server';

export interface MxMessage {
  from: string;
  to: string[];
  raw: string;
  /** Whether the client had switched to TLS (STARTTLS) before sending. */
  secure: boolean;
}

export type Refusal = { code: number; message: string } | null;

export interface MxServerOptions {
  /** The answer to RCPT TO for an address; null accepts it. A promise holds the answer back until it settles. */
  rcpt?: (address: string) => Refusal | Promise<Refusal>;
  /** The answer after DATA for a transaction's recipients; null accepts the message. */
  data?: (recipients: string[]) => Refusal;
  /** Offer STARTTLS with this certificate (self-signed is fine: MX delivery does not verify). */
  tls?: { key: string; cert: string };
  /** Speak TLS from the first byte (a smarthost on smtps:, port 465) with the `tls` certificate. */
  implicitTls?: boolean;
  /** A fixed port (a server started apart, with SMTP_MX_PORT, delivers to it); any free port by default. */
  port?: number;
  /** Another loopback address (127.0.0.2, …): several MX servers on the one SMTP_MX_PORT, each a provider of its own. */
  host?: string;
  /** Accept AUTH with these credentials, even without TLS (a smarthost reached with a user and password). */
  auth?: { user: string; pass: string };
}

const refusal = (answer: { code: number; message: string }) => Object.assign(new Error(answer.message), { responseCode: answer.code });

/**
 * A real SMTP server on 127.0.0.1 playing a recipient's MX (or a smarthost): refuses chosen
 * recipients at RCPT or after DATA, and counts connections so a test can see a pool reused.
 */
export async function startMxServer(options: MxServerOptions = {}) {
  const messages: MxMessage[] = [];
  let connections = 0;
  let open = 0;
  let peak = 0;
  const server = new SMTPServer({
    // Its default reverse lookup of each client would query the system resolver: tests stay on loopback.
    disableReverseLookup: true,
    authOptional: true,
    logger: false,
    disabledCommands: options.tls && !options.implicitTls ? [] : ['STARTTLS'],
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert, secure: options.implicitTls ?? false } : {}),
    closeTimeout: 1_000,
    ...(options.auth
      ? {
          allowInsecureAuth: true,
          onAuth(auth: SMTPServerAuthentication, _session: SMTPServerSession, callback: (error: Error | null, response?: SMTPServerAuthenticationResponse) => void) {
            if (auth.username === options.auth!.user && auth.password === options.auth!.pass) callback(null, { user: auth.username });
            else callback(new Error('Invalid username or password'));
          },
        }
      : {}),
    onConnect(_session, callback) {
      connections++;
      open++;
      peak = Math.max(peak, open);
      callback();
    },
    onClose() {
      open--;
    },
    onRcptTo(address, _session, callback) {
      void Promise.resolve(options.rcpt?.(address.address) ?? null).then((answer) => callback(answer ? refusal(answer) : undefined));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const answer = options.data?.(to);
        if (answer) return callback(refusal(answer));
        messages.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, raw: Buffer.concat(chunks).toString('utf8'), secure: session.secure });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    connections: () => connections,
    /** The most connections open at once since the server started (or since `resetPeak`). */
    peakConnections: () => peak,
    resetPeak: () => void (peak = open),
    /** Ends every client connection, as a server's idle timeout would; resolves once they are gone. */
    dropClients: async () => {
      const open = [...(server as unknown as { connections: Set<{ close(): void }> }).connections];
      for (const connection of open) connection.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MxServer = Awaited<ReturnType<typeof startMxServer>>;
