import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors';

// The rest of an oversized body is not read: the answer closes the connection, so a client's next
// request goes on a fresh one instead of waiting behind bytes nobody will read.
const CLOSE = { Connection: 'close' };
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a JSON body up to `limit` bytes; an empty body is {} whatever its declared type. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  return (await readJsonDocument(req, limit)).value;
}

/** A JSON body's value, and whether its text holds any `\u` escape (hostile-input.ts checks what those can spell). */
export async function readJsonDocument(req: IncomingMessage, limit: number): Promise<{ value: unknown; escapes: boolean }> {
  const raw = await readRawBody(req, limit);
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    // Not text: decoding leniently would store U+FFFD where the client sent something else.
    throw new AppError('VALIDATION_ERROR', 'The request body is not valid UTF-8');
  }
  if (text.trim() === '') return { value: {}, escapes: false };
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json');
  }
  try {
    return { value: JSON.parse(text), escapes: text.includes('\\u') };
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The request body is not valid JSON');
  }
}

/** A body's bytes as sent, up to `limit` (a declared or actual size past it: PAYLOAD_TOO_LARGE, closing). */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`, CLOSE);
  }
  return readRaw(req, limit);
}

/**
 * The body's bytes, up to `limit` (past it: 413, the rest drained unread). Listeners rather than
 * an async iterator: a small body is one chunk, and the iterator's promise per chunk costs more
 * than reading it. A stream error (the client went away) fails the read as the iterator would.
 */
function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error: Error | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done(new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`, CLOSE));
        req.resume();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(null);
    const onError = (error: Error) => done(error);
    const onClose = () => done(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function isJsonContentType(header: string | undefined): boolean {
  if (!header) return true;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}
