/**
 * Works through `items` a few at a time: `lanes` at once, each lane taking the next item when its
 * last is done, until none is left or `stop()` says so. Independent rows keep Postgres's
 * connections busy this way (PGlite takes them in turn), and one slow item holds up only its lane.
 * Every lane ends before this does, so a failure never leaves another item running unseen; the
 * first failure is thrown then. Items are started in order: those after the last started are untouched.
 */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length && !stop()) await work(items[next++]!);
  };
  const ended = await Promise.allSettled(Array.from({ length: lanes }, lane));
  const failed = ended.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
