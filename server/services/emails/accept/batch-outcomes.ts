import { isDatabaseUnavailable } from '@/db/unavailable';
import { AppError, type ErrorCode } from '../../../errors';

export type BatchOutcome = { id: string } | { error: string; code: ErrorCode };

/** The outcome of each item of a batch, in request order, as they are settled. */
export class BatchOutcomes {
  readonly list: BatchOutcome[];

  constructor(
    size: number,
    private readonly log: (error: unknown) => void,
  ) {
    this.list = new Array<BatchOutcome>(size);
  }

  settled(index: number): boolean {
    return this.list[index] !== undefined;
  }

  accepted(index: number, id: string): void {
    this.list[index] = { id };
  }

  /** An item's refusal is its outcome; a fault of ours is logged and answered as INTERNAL_ERROR. */
  failed(index: number, error: unknown): void {
    // Not an item's fault: the whole batch is refused (503) with nothing of it stored, and sent again whole.
    if (isDatabaseUnavailable(error)) throw error;
    if (error instanceof AppError) this.list[index] = { error: error.message, code: error.appCode };
    else {
      this.log(error);
      this.list[index] = { error: 'Internal server error', code: 'INTERNAL_ERROR' };
    }
  }

  /** Every item still without an outcome failed with this error (nothing of the batch was stored). */
  failRest(error: unknown): void {
    for (let index = 0; index < this.list.length; index += 1) if (!this.settled(index)) this.failed(index, error);
  }
}
