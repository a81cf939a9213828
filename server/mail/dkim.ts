import { createHash, sign, type KeyObject } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { promisify } from 'node:util';

// crypto.sign with a callback runs in libuv's thread pool: the RSA operation, the most expensive
// step of sending, leaves the event loop free for the other emails in flight.
const signInPool = promisify(sign);

export interface DkimSigning {
  domainName: string;
  keySelector: string;
  privateKey: KeyObject | string;
  /** The header fields to sign, colon-separated, in the order they go in h=. */
  headerFieldNames: string;
}

/** Relaxed body canonicalization (RFC 6376 §3.4.4): no trailing WSP, WSP runs as one SP, no trailing empty lines. */
export function relaxedBody(body: string): string {
  const text = body.replace(/[ \t]+(?=\r\n|$)/g, '').replace(/[ \t]+/g, ' ').replace(/(\r\n)+$/, '');
  return text ? `${text}\r\n` : '';
}

/** Relaxed header canonicalization (§3.4.2) of everything after the field name's colon. */
const relaxedValue = (value: string) => value.replace(/\r\n/g, '').replace(/[ \t]+/g, ' ').trim();

/** Folds `text` into lines of at most `width` characters, breaking only after one of `after`. */
function fold(text: string, width: number, after: RegExp): string {
  const lines: string[] = [];
  let line = '';
  for (const piece of text.split(after)) {
    if (line && line.length + piece.length > width) {
      lines.push(line);
      line = '';
    }
    line += piece;
  }
  return [...lines, line].join('\r\n ');
}

/**
 * Prepends a DKIM-Signature (rsa-sha256, relaxed/relaxed) to a CRLF message. The signature covers,
 * of each listed field present, its last occurrence, as nodemailer's signer does; the header is
 * signed as folded, since relaxed canonicalization keeps folding whitespace as a space.
 */
export async function signMessage(raw: Buffer, options: DkimSigning): Promise<Buffer> {
  let text = raw.toString('latin1');
  // A bare LF (a text part written with \n) goes on the wire as CRLF: sign and send that form.
  if (/(?<!\r)\n/.test(text)) {
    text = text.replace(/\r?\n/g, '\r\n');
    raw = Buffer.from(text, 'latin1');
  }
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split + 4);

  const fields = new Map<string, string>();
  for (const field of head.split(/\r\n(?![ \t])/)) {
    const colon = field.indexOf(':');
    if (colon > 0) fields.set(field.slice(0, colon).trim().toLowerCase(), relaxedValue(field.slice(colon + 1)));
  }
  const names = [...new Set(options.headerFieldNames.toLowerCase().split(':').map((name) => name.trim()))].filter((name) => fields.has(name));
  const bodyHash = createHash('sha256').update(relaxedBody(body), 'latin1').digest('base64');

  const header =
    `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${domainToASCII(options.domainName)};\r\n` +
    ` q=dns/txt; s=${options.keySelector};\r\n bh=${bodyHash};\r\n ${fold(`h=${names.join(':')};`, 76, /(?<=:)/)}\r\n b=`;
  const signed = `${names.map((name) => `${name}:${fields.get(name)}\r\n`).join('')}dkim-signature:${relaxedValue(header.slice(header.indexOf(':') + 1))}`;
  const signature = (await signInPool('sha256', Buffer.from(signed, 'latin1'), options.privateKey)).toString('base64');
  return Buffer.concat([Buffer.from(`${header}${signature.match(/.{1,72}/g)!.join('\r\n ')}\r\n`, 'latin1'), raw]);
}
