import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type { EnvelopeRecipient } from './message';
import { outcomeOfError, outcomeOfInfo, type DeliveryOutcome, type SmtpError } from './outcomes';
import type { DeliveryTimeouts } from './smtp-session';

// One pool per relay URL for the life of the process: a smarthost is worth keeping connections to.
const pools = new Map<string, Mail>();

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
    });
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
