import type { IncomingMessage } from 'node:http';

/**
 * The fields of an HTML form's POST body: `application/x-www-form-urlencoded`, or
 * `multipart/form-data` (which RFC 8058 lets a mailbox use for its one-click POST; file parts are
 * not expected and read as text). Another type has no fields. Answers 'too-large' past `limit`
 * bytes, without reading the rest.
 */
export async function readFormFields(req: IncomingMessage, limit: number): Promise<Map<string, string> | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return 'too-large';
  }
  const bytes = await readUpTo(req, limit);
  if (bytes === null) return 'too-large';
  const body = bytes.toString('utf8');
  const contentType = req.headers['content-type'] ?? '';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return new Map(new URLSearchParams(body));
  if (type === 'multipart/form-data') return multipartFields(body, boundaryOf(contentType));
  return new Map();
}

/** The fields of a multipart/form-data body already read (file parts read as text). */
export const multipartFormFields = (body: string, contentType: string): Map<string, string> => multipartFields(body, boundaryOf(contentType));

function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

function multipartFields(body: string, boundary: string | null): Map<string, string> {
  const fields = new Map<string, string>();
  if (!boundary) return fields;
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split === -1) continue;
    const name = /content-disposition:[^\r\n]*;\s*name="([^"]*)"/i.exec(part.slice(0, split))?.[1];
    if (name !== undefined && !fields.has(name)) fields.set(name, part.slice(split + 4).replace(/\r\n$/, ''));
  }
  return fields;
}

/**
 * The body, or null past `limit` bytes. Past it the rest is drained, not destroyed: destroying the
 * request would close the socket before the 413 is written.
 */
export function readUpTo(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd);
      req.resume();
      resolve(null);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
}
