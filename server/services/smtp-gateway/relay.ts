import { simpleParser } from 'mailparser';
import type { Deps } from '../../deps';
import { sendEmail } from '../emails/accept/send';
import type { Principal } from '../shared/principal';
import { checkEnvelopeSender, sendRequestOf, type Envelope } from './message';

/**
 * A message the SMTP gateway received, admitted through the same door as `POST /emails` (a single
 * send, counted as the relay's): every refusal of the API applies, thrown as the same AppError
 * (replies.ts turns it into an SMTP reply).
 */
export async function relayMessage(deps: Deps, principal: Principal, raw: Buffer, envelope: Envelope): Promise<{ id: string }> {
  // cid: links stay links (the inline parts travel as parts); no HTML made from text or text from HTML.
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, keepCidLinks: true });
  const request = sendRequestOf(parsed, envelope);
  checkEnvelopeSender(envelope, request.from);
  return sendEmail(deps, principal, request, 'smtp');
}
