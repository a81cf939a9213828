import { chunk } from '../../lib/chunk';
import { describeError } from '../../lib/errors';
import { SUPPRESSION_LIMITS } from '@/server/services/suppressions/limits';
import type { InvalidAddress, SuppressionImport } from './types';

export type SendBatch = (emails: string[]) => Promise<SuppressionImport>;

export interface UploadProgress {
  /** Addresses to send, and those answered for so far. */
  total: number;
  done: number;
}

export interface UploadOutcome extends UploadProgress {
  added: number;
  alreadySuppressed: number;
  /** The addresses the server refused, as given, with its reason, in the order sent. */
  invalid: InvalidAddress[];
  /** The error that stopped the upload (the network, the database away…), or null. */
  failure: unknown;
  /** Stopped between two batches because the page went away. */
  cancelled: boolean;
}

/**
 * Sends the addresses in batches of 1,000 (the API's bound), one after the other, and adds up the
 * answers. The server refuses an invalid address without failing the rest, so only a batch
 * refused whole stops the upload, with that error; a body too large (very long lines) is sent
 * again in two halves. Sending the same list again is safe: addresses already listed are counted,
 * not changed.
 */
export async function uploadAddresses(
  addresses: readonly string[],
  send: SendBatch,
  {
    batchSize = SUPPRESSION_LIMITS.batch,
    onProgress,
    shouldStop,
  }: { batchSize?: number; onProgress?: (progress: UploadProgress) => void; shouldStop?: () => boolean } = {},
): Promise<UploadOutcome> {
  const queue = chunk(addresses, batchSize);
  const outcome: UploadOutcome = { total: addresses.length, done: 0, added: 0, alreadySuppressed: 0, invalid: [], failure: null, cancelled: false };
  onProgress?.({ total: outcome.total, done: 0 });
  while (queue.length > 0) {
    if (shouldStop?.()) return { ...outcome, cancelled: true };
    const batch = queue.shift()!;
    try {
      const answer = await send(batch);
      outcome.added += answer.added;
      outcome.alreadySuppressed += answer.alreadySuppressed;
      outcome.invalid.push(...answer.invalid);
      outcome.done += batch.length;
      onProgress?.({ total: outcome.total, done: outcome.done });
    } catch (error) {
      if (describeError(error).code === 'PAYLOAD_TOO_LARGE' && batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        queue.unshift(batch.slice(0, half), batch.slice(half));
        continue;
      }
      return { ...outcome, failure: error };
    }
  }
  return outcome;
}
