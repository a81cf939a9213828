import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';

// The rest of an oversized body is not read: the answer closes the connection, so a client's next
// request goes on a fresh one instead of waiting behind bytes nobody will read.
const CLOSE = { Connection: 'close' };
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a JSON body up to `limit` bytes; an empty body is {} whatever its declared type. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`, CLOSE);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`, CLOSE);
    }
    chunks.push(chunk as Buffer);
  }
  let text: string;
  try {
    text = UTF8.decode(Buffer.concat(chunks));
  } catch {
    // Not text: decoding leniently would store U+FFFD where the client sent something else.
    throw new AppError('VALIDATION_ERROR', 'The request body is not valid UTF-8');
  }
  if (text.trim() === '') return {};
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The request body is not valid JSON');
  }
}

function isJsonContentType(header: string | undefined): boolean {
  if (!header) return true;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}
