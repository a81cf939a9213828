import { buildMessage, type OutgoingMessage } from '../../mail/message';
import { verpKeyFrom } from '../../mail/verp';
import type { SystemSender } from './sender';

interface SystemEmailContent {
  /** The row's id: the Message-ID's left side, the same on every attempt so a receiver can tell a retry from a new message. */
  id: string;
  toAddress: string;
  subject: string;
  html: string;
  text: string;
  /** When it was queued: the Date header, the same on every attempt, so each copy is the same message. */
  createdAt: Date;
}

/**
 * One of our own messages as customers' mail is built: the message builder's Message-ID on our
 * domain, Date, text and HTML parts, a DKIM signature by SYSTEM_MAIL_FROM's domain and a VERP
 * return path under it, so the one delivery function takes it as it takes any email.
 */
export function systemMessage(sender: SystemSender, row: SystemEmailContent, options: { encryptionKey: Buffer }): OutgoingMessage {
  return buildMessage({
    emailId: row.id,
    domain: { name: sender.domain, returnPath: sender.returnPath, dkim: { selector: sender.selector, privateKey: sender.privateKey } },
    from: sender.from,
    to: [row.toAddress],
    subject: row.subject,
    html: row.html,
    text: row.text,
    date: row.createdAt,
    verpKey: verpKeyFrom(options.encryptionKey),
  });
}
