/**
 * The next chunk of a sending broadcast, read and rendered while the current chunk's transaction
 * stores its emails: the render pool's worker thread and the database work side by side instead of
 * one after the other. One per broadcast in this process, used only by the chunk that starts at
 * the cursor it was read for (a hold, a lost lease or another worker moves the cursor elsewhere,
 * and it is dropped); one left unused goes after a minute.
 */
interface Prefetched<T> {
  cursor: string;
  version: number;
  at: number;
  copies: Promise<T | null>;
}

const UNUSED_FOR_MS = 60_000;

export function createChunkPrefetch<T>() {
  const ahead = new Map<string, Prefetched<T>>();
  return {
    /** Starts reading and rendering the chunk after `cursor`; a failure is only a missed head start. */
    start(broadcastId: string, cursor: string, version: number, load: () => Promise<T>): void {
      const copies = load().catch(() => null);
      ahead.set(broadcastId, { cursor, version, at: Date.now(), copies });
    },
    /** The chunk read ahead for this cursor, or null (none, another cursor, or it failed). */
    async take(broadcastId: string, cursor: string | null, version: number): Promise<T | null> {
      const now = Date.now();
      for (const [id, entry] of ahead) if (now - entry.at > UNUSED_FOR_MS) ahead.delete(id);
      const entry = ahead.get(broadcastId);
      if (!entry) return null;
      ahead.delete(broadcastId);
      if (entry.cursor !== cursor || entry.version !== version) return null;
      return entry.copies;
    },
  };
}
