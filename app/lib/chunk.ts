/** The items in runs of `size`, in order; the last may be shorter. Batch endpoints take a bounded number of items per request. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('the batch size must be a whole number, at least 1');
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
