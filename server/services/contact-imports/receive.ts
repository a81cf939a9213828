import { eq } from 'drizzle-orm';
import { contactImportChunks, contactImports } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import { newId } from '../../ids';
import { byPrincipal } from '../audit/record';
import type { Principal } from '../shared/principal';
import { CsvReader, detectDelimiter, holdsFirstRecord, type CsvDelimiter, type ReadRecord } from './csv-records';

/** A piece of the stored file: whole records, about this many characters (a record longer than that is one piece). */
export const CHUNK_CHARS = 256 * 1024;

/** A file received and stored, not queued yet: what its first record and its size say. */
export interface ReceivedFile {
  importId: string;
  fileName: string | null;
  bytes: number;
  delimiter: CsvDelimiter;
  /** The fields of the first record: the titles, when the file has a header. */
  firstRecord: string[];
  /** Records in the file, the first included. */
  records: number;
}

// The rest of an oversized body is not read: the answer closes the connection.
const CLOSE = { Connection: 'close' };

/**
 * Stores an import's CSV file as it arrives (`source` yields its bytes), in pieces of whole records
 * (contact_import_chunks), without holding more than a piece in memory: UTF-8 checked, the
 * separator told from the first record (a comma, a semicolon or a tab), the records counted. The
 * import's row says `receiving` until it is queued; a file refused on the way (past `maxBytes`:
 * 413, not UTF-8 text, a quote never closed, empty: 400) is deleted again, and so is one whose
 * request died (the sweep clears `receiving` rows left behind: sweep.ts).
 */
export async function receiveImportFile(
  deps: Pick<Deps, 'db' | 'clock'>,
  principal: Principal,
  input: { fileName: string | null; source: AsyncIterable<Uint8Array>; maxBytes: number },
): Promise<ReceivedFile> {
  const importId = newId();
  await deps.db.insert(contactImports).values({
    id: importId,
    organizationId: principal.organizationId,
    status: 'receiving',
    fileName: input.fileName,
    requestedBy: byPrincipal(principal) as unknown as Record<string, unknown>,
    createdAt: deps.clock.now(),
  });
  try {
    const stored = await storeChunks(deps, importId, input.source, input.maxBytes);
    await deps.db.update(contactImports).set({ fileBytes: stored.bytes, delimiter: stored.delimiter }).where(eq(contactImports.id, importId));
    return { importId, fileName: input.fileName, ...stored };
  } catch (error) {
    await discardImport(deps, importId);
    throw error;
  }
}

/** Deletes an import that was never queued, with its file. */
export async function discardImport(deps: Pick<Deps, 'db'>, importId: string): Promise<void> {
  await deps.db.delete(contactImports).where(eq(contactImports.id, importId));
}

async function storeChunks(deps: Pick<Deps, 'db'>, importId: string, source: AsyncIterable<Uint8Array>, maxBytes: number) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let reader: CsvReader | null = null;
  /** Text before the separator is known: the first record, read whole first. */
  let opening = '';
  /** Text not stored yet, from `pendingAt` (characters of the whole file). */
  let pending = '';
  let pendingAt = 0;
  let seq = 0;
  let firstRecord: string[] | null = null;
  let records = 0;
  let pieceRecords = 0;
  let pieceFirstLine = 1;
  let lastEnd = 0;
  let lastNextLine = 1;
  let lastLine = 1;

  const store = async (upTo: number, nextLine: number) => {
    const text = pending.slice(0, upTo - pendingAt);
    await deps.db.insert(contactImportChunks).values({ importId, seq, text, records: pieceRecords, firstLine: pieceFirstLine });
    seq += 1;
    pending = pending.slice(upTo - pendingAt);
    pendingAt = upTo;
    pieceRecords = 0;
    pieceFirstLine = nextLine;
  };
  const take = (done: ReadRecord[]) => {
    for (const record of done) {
      firstRecord ??= record.fields;
      records += 1;
      pieceRecords += 1;
      lastEnd = record.end;
      lastNextLine = record.nextLine;
      lastLine = record.line;
    }
  };
  const read = async (text: string) => {
    if (text.includes('\0')) throw validationError('file: holds a NUL character: it is not a CSV text file');
    if (!reader) {
      opening += text;
      if (!holdsFirstRecord(opening)) return;
      reader = new CsvReader({ delimiter: detectDelimiter(opening) });
      text = opening;
      opening = '';
    }
    pending += text;
    take(reader.push(text));
    if (lastEnd - pendingAt >= CHUNK_CHARS) await store(lastEnd, lastNextLine);
  };

  for await (const piece of source) {
    bytes += piece.byteLength;
    if (bytes > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `file: larger than ${maxBytes.toLocaleString('en')} bytes; split it into several imports`, CLOSE);
    await read(decode(decoder, piece, true));
  }
  await read(decode(decoder, undefined, false));
  if (!reader) {
    reader = new CsvReader({ delimiter: detectDelimiter(opening) });
    pending += opening;
    take(reader.push(opening));
  }
  take(reader.end());
  if (reader.unterminatedQuote) throw validationError(`file: a quoted field is never closed: its record, from line ${lastLine}, runs to the end of the file`);
  if (records === 0 || !firstRecord) throw validationError('file: holds no records (it is empty)');
  if (pieceRecords > 0) await store(pendingAt + pending.length, lastNextLine);
  return { bytes, delimiter: reader.delimiter, firstRecord: firstRecord as string[], records };
}

function decode(decoder: TextDecoder, piece: Uint8Array | undefined, stream: boolean): string {
  try {
    return decoder.decode(piece, { stream });
  } catch {
    throw validationError('file: is not UTF-8 text; save it as "CSV UTF-8"');
  }
}
