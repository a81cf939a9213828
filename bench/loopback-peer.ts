/**
 * The outside world of the emails suite, on 127.0.0.1 only, in its own process (so its CPU is
 * counted apart from the service's): the tests' loopback DNS server (test/support/dns.ts) and an
 * SMTP sink (smtp-server) that accepts every message, counts it and throws it away, keeping the
 * first few raw messages so the driver can check their DKIM signatures.
 *
 * Forked by bench/suite-emails.ts with an IPC channel; answers each message with one message:
 *   { op: 'records', mx, a, txt }  publish records          → { ok: true }
 *   { op: 'stats' }                 messages and connections → PeerStats
 *   { op: 'samples' }               kept raw messages        → { samples: Sample[] }
 *   { op: 'reset' }                 zero the counters        → { ok: true }
 *   { op: 'track-ids' }             from now on, count each message by the email id in its
 *                                   Message-ID (<emailId@domain>)             → { ok: true }
 *   { op: 'ids' }                   the tally so far → { ids: string[], repeated: Array<[id, n]>, unmatched }
 * and sends { dns, smtpPort } first, once both listen.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startDnsServer } from '../test/support/dns';
import { exitWithError } from './child-failure';

export interface PeerStats {
  messages: number;
  recipients: number;
  bytes: number;
  connections: number;
  dnsQueries: number;
  /** ms since the first and the last message since the last reset (null: none yet). */
  firstAt: number | null;
  lastAt: number | null;
}

export interface Sample {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
}

export type PeerRequest =
  | { op: 'records'; mx?: Array<[string, string]>; a?: Array<[string, string]>; txt?: Array<[string, string[]]> }
  | { op: 'stats' }
  | { op: 'samples' }
  | { op: 'reset' }
  | { op: 'track-ids' }
  | { op: 'ids' };

export interface IdTally {
  /** Every email id seen, once each. */
  ids: string[];
  /** Ids seen more than once, with how often. */
  repeated: Array<[string, number]>;
  /** Messages whose header had no Message-ID of the service's form. */
  unmatched: number;
}

const MESSAGE_ID = /^message-id:[ \t]*<([^@>\s]+)@/im;
/** The header ends at the first empty line; a Message-ID further down would be body text. */
const headerOf = (head: string) => {
  const end = head.indexOf('\r\n\r\n');
  return end < 0 ? null : head.slice(0, end);
};

const KEEP_SAMPLES = 5;

async function main(): Promise<void> {
  const dns = await startDnsServer();
  const stats: PeerStats = { messages: 0, recipients: 0, bytes: 0, connections: 0, dnsQueries: 0, firstAt: null, lastAt: null };
  let samples: Sample[] = [];
  let byId: Map<string, number> | null = null;
  let unmatched = 0;

  const smtp = new SMTPServer({
    authOptional: true,
    logger: false,
    disabledCommands: ['STARTTLS'],
    // smtp-server resolves every client's address through the system resolver by default: a
    // query off this machine. Loopback only.
    disableReverseLookup: true,
    banner: 'bench sink',
    closeTimeout: 1_000,
    // A pool keeps its connections; the senders are ours, so no limit but the defaults'.
    maxClients: 500,
    onConnect(_session, callback) {
      stats.connections++;
      callback();
    },
    onData(stream, session, callback) {
      const keep = samples.length < KEEP_SAMPLES;
      const chunks: Buffer[] = [];
      let size = 0;
      // Only while tracking: the first 64 kB are plenty for the header.
      let head = byId ? '' : null;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (keep) chunks.push(chunk);
        if (head !== null && head.length < 65_536 && headerOf(head) === null) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        if (head !== null && byId) {
          const id = MESSAGE_ID.exec(headerOf(head) ?? '')?.[1];
          if (id) byId.set(id, (byId.get(id) ?? 0) + 1);
          else unmatched++;
        }
        const now = Date.now();
        stats.messages++;
        stats.recipients += session.envelope.rcptTo.length;
        stats.bytes += size;
        stats.firstAt ??= now;
        stats.lastAt = now;
        if (keep) {
          samples.push({
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
        }
        callback();
      });
    },
  });
  smtp.on('error', (error) => console.error(`[sink] ${error.message}`));
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  let stopping = false;
  // Ctrl-C reaches the whole process group, then the harness's SIGTERM and the parent's exit
  // follow: closing the DNS socket twice would throw.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    smtp.close(() => undefined);
    void dns.close();
    setTimeout(() => process.exit(0), 200).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);

  process.on('message', (request: PeerRequest) => {
    const answer = (message: unknown) => process.send!(message);
    switch (request.op) {
      case 'records':
        for (const [name, exchange] of request.mx ?? []) dns.mx(name, exchange);
        for (const [name, address] of request.a ?? []) dns.a(name, address);
        for (const [name, parts] of request.txt ?? []) dns.txt(name, ...parts);
        return answer({ ok: true });
      case 'stats':
        return answer({ ...stats, dnsQueries: dns.queries.length });
      case 'samples':
        return answer({ samples });
      case 'reset':
        Object.assign(stats, { messages: 0, recipients: 0, bytes: 0, connections: 0, firstAt: null, lastAt: null });
        dns.queries.length = 0;
        samples = [];
        if (byId) byId = new Map();
        unmatched = 0;
        return answer({ ok: true });
      case 'track-ids':
        byId ??= new Map();
        return answer({ ok: true });
      case 'ids': {
        const tally: IdTally = { ids: [...(byId?.keys() ?? [])], repeated: [...(byId ?? [])].filter(([, n]) => n > 1), unmatched };
        return answer(tally);
      }
    }
  });
  process.send!({ dns: dns.address, smtpPort });
}

main().catch(exitWithError);
