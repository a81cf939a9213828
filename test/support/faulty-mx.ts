import net, { type AddressInfo } from 'node:net';

/**
 * What a connection to the faulty MX does, chosen when it is accepted:
 * - accept: a well-behaved server; every message is recorded.
 * - tarpit: takes the TCP connection and never says a word.
 * - greet-421: greets with 421 (too busy) and hangs up.
 * - rcpt-451: greylists: 451 4.7.1 at RCPT TO for an envelope (MAIL FROM, RCPT TO) this server
 *   has not refused before, as a greylister does on the first try; one it has refused is let
 *   through, on this connection or a later one (the retry came), the rest of the dialogue as usual.
 * - drop-mid-data: after the 354, reads a part of the message and destroys the socket, so the
 *   final dot is never answered.
 * - bad-tls: advertises STARTTLS, answers 220 to it, then writes bytes that are no TLS handshake.
 * - tls-hangup: advertises STARTTLS, answers 220 to it, then closes the connection.
 */
export type Behaviour = 'accept' | 'tarpit' | 'greet-421' | 'rcpt-451' | 'drop-mid-data' | 'bad-tls' | 'tls-hangup';

export interface AcceptedMessage {
  from: string;
  to: string[];
  /** The message as received, dot-unstuffed, CRLF line ends. */
  raw: string;
  messageId: string | undefined;
  /** performance.now() when the final dot was answered 250. */
  at: number;
}

export interface FaultyMxOptions {
  /** A loopback address: 127.0.0.1, 127.0.0.2, … (every 127/8 address is local on Linux). */
  host?: string;
  /** 0 for any free port; another server's port to share it on another address. */
  port?: number;
}

const CRLF = '\r\n';
/** A ServerHello it is not: a TLS client reading this fails its handshake at once. */
const NOT_TLS = Buffer.from('this is not TLS at all\r\n');

const messageIdOf = (raw: string) => /^Message-ID:[ \t]*(\S+)/im.exec(raw.slice(0, raw.search(/\r\n\r\n|$/)))?.[1];
const addressIn = (argument: string) => /<([^>]*)>/.exec(argument)?.[1] ?? argument.trim();

/** One client connection's SMTP state. */
interface Transaction {
  from: string | null;
  to: string[];
  /** Reading the message after a 354. */
  data: string[] | null;
}

/**
 * A raw TCP SMTP server on a loopback address that misbehaves on purpose: each connection plays
 * the next behaviour of its script, or the default once the script is spent. It speaks just enough
 * SMTP for nodemailer: EHLO/HELO, MAIL, RCPT, DATA (dot-unstuffed), RSET, NOOP, QUIT, STARTTLS.
 */
export async function startFaultyMx(options: FaultyMxOptions = {}) {
  const host = options.host ?? '127.0.0.1';
  const script: Behaviour[] = [];
  let otherwise: Behaviour = 'accept';
  const messages: AcceptedMessage[] = [];
  /** Envelopes refused once by greylisting, "from to". */
  const greylisted = new Set<string>();
  const sockets = new Set<net.Socket>();
  const played: Behaviour[] = [];

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A client that gives up resets the connection: nothing to report.
    socket.on('error', () => socket.destroy());
    const behaviour = script.shift() ?? otherwise;
    played.push(behaviour);
    converse(socket, behaviour);
  });

  function converse(socket: net.Socket, behaviour: Behaviour): void {
    if (behaviour === 'tarpit') return;
    const reply = (line: string) => void socket.write(line + CRLF);
    if (behaviour === 'greet-421') {
      socket.end(`421 4.3.2 ${host} too busy, try again later${CRLF}`);
      return;
    }
    reply(`220 ${host} ESMTP faulty-mx`);
    // Only the broken-TLS behaviours offer it: the others have no TLS to offer.
    const offersTls = behaviour === 'bad-tls' || behaviour === 'tls-hangup';
    const transaction: Transaction = { from: null, to: [], data: null };
    let buffered = '';
    const onData = (chunk: Buffer) => {
      if (transaction.data && behaviour === 'drop-mid-data') {
        socket.destroy();
        return;
      }
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\n'); end >= 0 && !socket.destroyed; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end).replace(/\r$/, '');
        buffered = buffered.slice(end + 1);
        if (transaction.data) readDataLine(line);
        else if (command(line) === 'stop') return;
      }
    };
    socket.on('data', onData);

    function readDataLine(line: string): void {
      if (line !== '.') {
        transaction.data!.push(line.startsWith('.') ? line.slice(1) : line);
        return;
      }
      const raw = transaction.data!.join(CRLF) + CRLF;
      messages.push({ from: transaction.from ?? '', to: transaction.to, raw, messageId: messageIdOf(raw), at: performance.now() });
      reply(`250 2.0.0 Ok: queued as ${messages.length}`);
      Object.assign(transaction, { from: null, to: [], data: null });
    }

    /** Answers one command line; 'stop' once the connection is no longer ours to read. */
    function command(line: string): 'stop' | void {
      const verb = line.slice(0, 4).toUpperCase();
      const argument = line.slice(line.indexOf(':') + 1);
      if (verb === 'EHLO') {
        reply(`250-${host} hello`);
        if (offersTls) reply('250-STARTTLS');
        reply('250 8BITMIME');
      } else if (verb === 'HELO') reply(`250 ${host}`);
      else if (line.toUpperCase() === 'STARTTLS') return startTls();
      else if (verb === 'MAIL') {
        Object.assign(transaction, { from: addressIn(argument), to: [] });
        reply('250 2.1.0 Ok');
      } else if (verb === 'RCPT') rcpt(addressIn(argument));
      else if (verb === 'DATA') {
        if (transaction.to.length === 0) return reply('503 5.5.1 No valid recipients');
        transaction.data = [];
        reply('354 End data with <CR><LF>.<CR><LF>');
      } else if (verb === 'RSET') {
        Object.assign(transaction, { from: null, to: [], data: null });
        reply('250 2.0.0 Ok');
      } else if (verb === 'NOOP') reply('250 2.0.0 Ok');
      else if (verb === 'QUIT') {
        socket.end(`221 2.0.0 Bye${CRLF}`);
        return 'stop';
      } else reply('502 5.5.2 Command not recognized');
    }

    function rcpt(address: string): void {
      const envelope = `${transaction.from} ${address}`;
      if (behaviour === 'rcpt-451' && !greylisted.has(envelope)) {
        greylisted.add(envelope);
        return reply('451 4.7.1 Greylisted, try again later');
      }
      transaction.to.push(address);
      reply('250 2.1.5 Ok');
    }

    function startTls(): 'stop' | void {
      if (!offersTls) return reply('502 5.5.1 STARTTLS not offered');
      // From here the client speaks TLS: stop reading SMTP and break its handshake.
      socket.off('data', onData);
      reply('220 2.0.0 Ready to start TLS');
      if (behaviour === 'tls-hangup') socket.end();
      // Answered once the client's ClientHello is in, so the bytes reach its TLS layer, not its SMTP parser.
      else socket.once('data', () => socket.end(NOT_TLS));
      return 'stop';
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    host,
    port: (server.address() as AddressInfo).port,
    /** Messages accepted (250 after the dot), in order. */
    messages,
    /** Connections accepted so far. */
    connections: () => played.length,
    /** The behaviour each connection played, in order. */
    played,
    /** Connections open now (a tarpitted one stays open until the client gives up). */
    openConnections: () => sockets.size,
    /** The next connections play these, in order; after them, the default. */
    script: (...behaviours: Behaviour[]) => void script.push(...behaviours),
    /** What connections play once the script is spent. */
    setDefault: (behaviour: Behaviour) => void (otherwise = behaviour),
    /** How many accepted copies of each Message-ID. */
    copiesById: () => {
      const copies = new Map<string, number>();
      for (const message of messages) copies.set(message.messageId ?? '', (copies.get(message.messageId ?? '') ?? 0) + 1);
      return copies;
    },
    /** Forgets everything and drops every connection (between tests). */
    reset: () => {
      script.length = 0;
      otherwise = 'accept';
      messages.length = 0;
      played.length = 0;
      greylisted.clear();
      for (const socket of sockets) socket.destroy();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FaultyMx = Awaited<ReturnType<typeof startFaultyMx>>;

/**
 * Faulty MX servers on several loopback addresses sharing one port, since every MX is dialled on
 * SMTP_MX_PORT: the first takes any free port, the others the same one on their own address. A
 * port the kernel gave the first might be taken on another address: then all start over.
 */
export async function startFaultyMxes(hosts: string[]): Promise<FaultyMx[]> {
  for (let tries = 0; ; tries += 1) {
    const first = await startFaultyMx({ host: hosts[0] });
    const started = [first];
    try {
      for (const host of hosts.slice(1)) started.push(await startFaultyMx({ host, port: first.port }));
      return started;
    } catch (error) {
      await Promise.all(started.map((mx) => mx.close()));
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 5) throw error;
    }
  }
}
