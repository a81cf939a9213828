import { chunk as chunkOf } from '../../../lib/chunk';

/** The API takes at most this many contacts (or ids) per batch request. */
export const CONTACT_BATCH_SIZE = 1_000;

/** The items in runs of `size`, in order; the last may be shorter. */
export const chunk = <T>(items: readonly T[], size: number = CONTACT_BATCH_SIZE): T[][] => chunkOf(items, size);
