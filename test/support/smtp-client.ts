import net from 'node:net';
import tls from 'node:tls';

/**
 * A bare SMTP client on loopback, byte for byte what a test writes: for the replies to hostile or
 * broken clients that nodemailer would never send (bare LF, NUL bytes, pipelined garbage, a
 * trickle). `reply()` waits for the next complete reply (all lines of a multi-line one).
 */
export interface RawSmtp {
  write(data: string | Buffer): void;
  /** Writes a command line (CRLF added) and waits for its reply. */
  command(line: string): Promise<string>;
  reply(timeoutMs?: number): Promise<string>;
  /** STARTTLS, then the TLS handshake on the same connection (certificate not checked). */
  startTls(): Promise<string>;
  /** The SHA-256 fingerprint of the server's certificate, once TLS is up. */
  fingerprint(): string | undefined;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  isClosed(): boolean;
  close(): void;
}

export async function openSmtp(port: number, options: { implicitTls?: boolean; localAddress?: string } = {}): Promise<RawSmtp> {
  const target = { port, host: '127.0.0.1', localAddress: options.localAddress };
  let socket: net.Socket = options.implicitTls ? tls.connect({ ...target, rejectUnauthorized: false }) : net.connect(target);
  let buffer = '';
  let waiting: (() => void) | null = null;
  let ended = false;
  let closedResolve!: () => void;
  const closed = new Promise<void>((resolve) => (closedResolve = resolve));
  const attach = (s: net.Socket) => {
    s.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      waiting?.();
    });
    s.on('error', () => {});
    s.on('close', () => {
      ended = true;
      closedResolve();
      waiting?.();
    });
  };
  attach(socket);

  /** The first complete reply in the buffer: lines up to one whose 4th character is a space. */
  const takeReply = (): string | null => {
    const lines = buffer.split('\r\n');
    for (let i = 0; i < lines.length - 1; i += 1) {
      if (/^\d{3}( |$)/.test(lines[i]!)) {
        const reply = lines.slice(0, i + 1).join('\n');
        buffer = lines.slice(i + 1).join('\r\n');
        return reply;
      }
    }
    return null;
  };

  const reply = (timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting = null;
        reject(new Error(`no SMTP reply within ${timeoutMs} ms (buffer: ${JSON.stringify(buffer)})`));
      }, timeoutMs);
      const check = () => {
        const found = takeReply();
        if (found !== null || ended) {
          clearTimeout(timer);
          waiting = null;
          resolve(found ?? '(connection closed)');
        }
      };
      waiting = check;
      check();
    });

  const client: RawSmtp = {
    write: (data) => void socket.write(data),
    command: (line) => {
      socket.write(`${line}\r\n`);
      return reply();
    },
    reply,
    async startTls() {
      const answer = await client.command('STARTTLS');
      if (!answer.startsWith('220')) return answer;
      socket.removeAllListeners('data');
      socket = tls.connect({ socket, rejectUnauthorized: false });
      attach(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('secureConnect', () => resolve());
        socket.once('error', reject);
      });
      return answer;
    },
    closed,
    fingerprint: () => (socket instanceof tls.TLSSocket ? socket.getPeerX509Certificate()?.fingerprint256 : undefined),
    isClosed: () => ended,
    close: () => socket.destroy(),
  };
  if (options.implicitTls) await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', () => resolve());
    socket.once('error', reject);
  });
  return client;
}
