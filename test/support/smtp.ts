import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  from: string;
  to: string[];
  raw: string;
  /** The email id from the Message-ID header (`<emailId@domain>`). */
  emailId: string | null;
  /** When the sink took the message (Date.now()), before its 250 went out. */
  at: number;
}

interface SinkOptions {
  reject?: () => { code: number; message: string } | null;
  /** Runs after the message has arrived and before the answer: a slow or held receiver. The message already counts as arrived. */
  beforeAnswer?: (message: ReceivedMessage) => Promise<void>;
}

/** A real SMTP server on loopback that keeps what it is sent; `reject` makes it answer with an error. */
export async function startSmtpSink(options: SinkOptions = {}) {
  const messages: ReceivedMessage[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    // Its default reverse lookup of each client would query the system resolver: tests stay on loopback.
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refusal = options.reject?.();
        if (refusal) {
          const error = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const message: ReceivedMessage = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          emailId: /^Message-ID:\s*<([^@>]+)@/im.exec(raw)?.[1] ?? null,
          at: Date.now(),
        };
        messages.push(message);
        waiters.splice(0).forEach((wake) => wake());
        if (!options.beforeAnswer) return callback();
        options.beforeAnswer(message).then(() => callback(), callback);
      });
    },
  });
  // A sender that dies mid-session (the fault tests kill them) resets its connection: not the sink's failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${messages.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
