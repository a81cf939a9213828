/**
 * A DKIM or DMARC record's `tag=value; …` list (RFC 6376 §3.2, RFC 7489 §6.4): tag names
 * lowercase, whitespace inside a value dropped (a long DKIM key is often folded). The first
 * occurrence of a tag wins, as receivers read it.
 */
export function parseTagList(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim().toLowerCase();
    if (name && !tags.has(name)) tags.set(name, part.slice(at + 1).replace(/\s+/g, ''));
  }
  return tags;
}

/** A TXT record arrives as its 255-byte strings; the value is their concatenation. */
export const txtValues = (records: string[][]): string[] => records.map((strings) => strings.join(''));
