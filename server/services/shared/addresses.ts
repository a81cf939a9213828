import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';

export interface Mailbox {
  /** The display name, unquoted; null when none was given. */
  name: string | null;
  local: string;
  /** The domain in ASCII (IDN converted to punycode), lowercase. */
  domain: string;
  /** `local@domain` with the ASCII domain: what goes into the SMTP envelope. */
  address: string;
}

export class AddressError extends Error {}

// RFC 5322 atext, widened by RFC 6532 to any non-ASCII character (UTF-8 local parts).
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\u{10FFFF}-]+$/u;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

function parseLocal(local: string, whole: string): string {
  if (local.startsWith('"')) {
    if (!/^"(?:[^"\\\r\n]|\\[\x20-\x7e])*"$/.test(local)) throw new AddressError(`"${whole}" has a badly quoted local part`);
    return local;
  }
  if (!local.split('.').every((atom) => ATOM.test(atom))) throw new AddressError(`"${whole}" is not a valid email address`);
  return local;
}

function parseDomain(domain: string, whole: string): string {
  if (domain.startsWith('[') || isIP(domain)) throw new AddressError(`"${whole}": an IP address is not accepted as a mail domain`);
  const ascii = domainToASCII(domain.toLowerCase().replace(/\.$/, ''));
  const labels = ascii.split('.');
  if (!ascii || ascii.length > 253 || labels.length < 2 || !labels.every((label) => LABEL.test(label))) {
    throw new AddressError(`"${whole}" does not have a valid domain`);
  }
  return ascii;
}

function unquoteName(raw: string): string | null {
  const name = raw.trim();
  if (!name) return null;
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) return name.slice(1, -1).replace(/\\(.)/g, '$1');
  return name;
}

/**
 * One mailbox as senders write it: `Name <local@domain>` or `local@domain`, per RFC 5322 with the
 * UTF-8 of RFC 6532 and IDN domains. Refuses what a receiving server would refuse, with a reason.
 */
export function parseMailbox(input: string): Mailbox {
  const known = parsed.get(input);
  if (known) return known;
  const mailbox = Object.freeze(parseUncached(input));
  if (parsed.size >= PARSED_CACHE_SIZE) parsed.clear();
  parsed.set(input, mailbox);
  return mailbox;
}

// A send parses each address several times (validation, checks, the row, the envelope) and a
// batch often repeats senders: parsing is pure, so answers are kept (refusals are not).
const PARSED_CACHE_SIZE = 10_000;
const parsed = new Map<string, Readonly<Mailbox>>();

function parseUncached(input: string): Mailbox {
  const text = input.trim();
  if (!text) throw new AddressError('an email address must not be empty');
  if (CONTROL.test(text)) throw new AddressError('an email address must not contain line breaks or control characters');
  let name: string | null = null;
  let spec = text;
  const angle = /^(.*)<([^<>]*)>$/s.exec(text);
  if (angle) {
    name = unquoteName(angle[1]!);
    spec = angle[2]!.trim();
  } else if (/[<>]/.test(text)) {
    throw new AddressError(`"${input}" has unbalanced angle brackets`);
  }
  const at = spec.lastIndexOf('@');
  if (at <= 0 || at === spec.length - 1) throw new AddressError(`"${input}" is not a valid email address`);
  const local = parseLocal(spec.slice(0, at), input);
  const domain = parseDomain(spec.slice(at + 1), input);
  if (Buffer.byteLength(local) > 64) throw new AddressError(`"${input}": the part before @ is longer than 64 bytes`);
  const address = `${local}@${domain}`;
  if (Buffer.byteLength(address) > 254) throw new AddressError(`"${input}" is longer than 254 bytes`);
  return { name, local, domain, address };
}

/** The form suppression lists and recipient filters compare: lowercase, ASCII domain. */
export const normalizeAddress = (input: string): string => parseMailbox(input).address.toLowerCase();
