import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMessage {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps what it is sent; `reject` makes it answer with an error. */
export async function startSmtpSink(options: { reject?: () => { code: number; message: string } | null } = {}) {
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
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
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
