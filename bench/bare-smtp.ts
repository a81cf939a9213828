/**
 * The delivery floor: nodemailer alone sending DKIM-signed messages to the loopback sink, with no
 * database and no per-email bookkeeping. Pooled: one transport with the relay pool's settings
 * (5 connections, 100 messages each), every message handed over at once. Unpooled: a new
 * connection per message, `concurrency` at a time (what direct MX delivery has to do). With
 * `noDelay`, TCP_NODELAY on the sockets (nodemailer leaves Nagle's algorithm on).
 *
 * Forked by bench/suite-emails.ts: answers { op: 'run', ... } (BareSmtpJob) with BareSmtpRun.
 */
import nodemailer from 'nodemailer';
import { SIGNED_HEADERS } from '../server/mail/message';
import { exitWithError } from './child-failure';

export interface BareSmtpJob {
  op: 'run';
  count: number;
  port: number;
  pooled: boolean;
  /** Unpooled only: messages in flight at once. */
  concurrency: number;
  /** TCP_NODELAY on the SMTP sockets (bench/whatif-nodelay.ts); nodemailer leaves Nagle on. */
  noDelay: boolean;
  dkim: { domainName: string; keySelector: string; privateKey: string };
  message: { from: string; to: string; subject: string; html: string; text?: string };
  /** Headers beside the default Feedback-ID (which they may replace), e.g. a broadcast's List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface BareSmtpRun {
  sent: number;
  failed: number;
  ms: number;
  firstError: string | null;
}

async function run(job: BareSmtpJob): Promise<BareSmtpRun> {
  if (job.noDelay) await import('./whatif-nodelay');
  const base = { host: '127.0.0.1', port: job.port, secure: false, ignoreTLS: true, name: 'mx.eumail.bench', logger: false };
  const transport = job.pooled ? nodemailer.createTransport({ ...base, pool: true, maxConnections: 5, maxMessages: 100 }) : nodemailer.createTransport(base);
  transport.on('error', () => undefined);
  const result: BareSmtpRun = { sent: 0, failed: 0, ms: 0, firstError: null };
  const sendOne = async (i: number) => {
    try {
      await transport.sendMail({
        from: job.message.from,
        to: job.message.to,
        subject: job.message.subject,
        html: job.message.html,
        text: job.message.text,
        messageId: `<bare-${i}@${job.dkim.domainName}>`,
        date: new Date(),
        headers: { 'Feedback-ID': `transactional:bench:transactional:eumail`, ...job.headers },
        envelope: { from: `bounce+${i}@send.${job.dkim.domainName}`, to: [job.message.to] },
        disableFileAccess: true,
        disableUrlAccess: true,
        dkim: { ...job.dkim, headerFieldNames: SIGNED_HEADERS },
      });
      result.sent++;
    } catch (error) {
      result.failed++;
      result.firstError ??= error instanceof Error ? error.message : String(error);
    }
  };
  const started = performance.now();
  if (job.pooled) {
    await Promise.all(Array.from({ length: job.count }, (_, i) => sendOne(i)));
  } else {
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < job.count; i = next++) await sendOne(i);
    };
    await Promise.all(Array.from({ length: job.concurrency }, lane));
  }
  result.ms = performance.now() - started;
  transport.close();
  return result;
}

process.on('message', (job: BareSmtpJob) => {
  run(job)
    .then((result) => process.send!(result))
    .catch(exitWithError);
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.send!({ ready: true });
