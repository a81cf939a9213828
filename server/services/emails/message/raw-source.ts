import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { dkimKeys } from '@/db/schema';
import type { Deps } from '../../../deps';
import { compileMessage } from '../../../mail/delivery';
import type { Principal } from '../../shared/principal';
import { ownEmail } from '../read';
import { composeMessage } from './compose';

/** How much of a source the dashboard shows inline (a 5 MiB body is far more); the whole message downloads as .eml. */
export const RAW_SOURCE_SHOWN_BYTES = 256 * 1024;

export type RawSource =
  | {
      available: true;
      /** The whole message: headers with the DKIM signature, then the MIME parts. */
      message: Buffer;
      /** The Date header it carries: when it was first sent, or (not sent) when it is due. */
      date: Date;
      /** Whether these are the bytes that went out (it was built for sending at least once). */
      sent: boolean;
      /** Attachments past their 30 days: listed on the email, no longer in the message. */
      expiredAttachments: string[];
    }
  | { available: false; reason: string };

/** The DKIM key an email's domain signs with now; the sandbox needs none. */
async function activeKeyOf(deps: Pick<Deps, 'db'>, domainId: string | null): Promise<string | null> {
  if (!domainId) return null;
  const [key] = await deps.db
    .select({ id: dkimKeys.id })
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), isNull(dkimKeys.retiredAt), isNotNull(dkimKeys.privateKeyEncrypted)))
    .orderBy(desc(dkimKeys.id))
    .limit(1);
  return key?.id ?? null;
}

/**
 * The raw MIME source of the caller's email, as it was sent or would be: the service keeps no copy
 * of what went out, but the message is deterministic (docs/emails.md, "Raw source"), so it is
 * built again, as delivery builds it, with the Date header of the first build. Signed with the
 * domain's current DKIM key (the one that signed it, unless the key was rotated since). A test
 * email shows the message a live send would have carried. 404 as for reading the email.
 */
export async function rawSourceOf(deps: Pick<Deps, 'db' | 'config' | 'encryptionKey' | 'sandbox'>, principal: Principal, id: string): Promise<RawSource> {
  const row = await ownEmail(deps, principal, id);
  // Not sent yet: dated when it is due, so two looks (the page, the .eml) are the same message.
  const date = row.messageDate ?? row.scheduledAt ?? row.createdAt;
  const composed = await composeMessage(deps, { row, signingKeyId: await activeKeyOf(deps, row.domainId), hasAttachments: true, date });
  if (!composed) return { available: false, reason: 'The sending domain was deleted with its DKIM key, so the message cannot be built again.' };
  return {
    available: true,
    message: await compileMessage(composed.message),
    date,
    sent: row.messageDate !== null,
    expiredAttachments: composed.expiredAttachments,
  };
}
