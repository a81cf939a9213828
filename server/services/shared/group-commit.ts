import type { Db } from '@/db/client';

interface Waiting<Item, Answer> {
  item: Item;
  settle: (answer: Answer) => void;
  fail: (error: unknown) => void;
}

const MAX_BATCH = 64;

/**
 * Writes items one statement per batch: items arriving while a write is under way go together in
 * the next one (group commit), so many workers finishing at once pay one round trip and one
 * commit per batch, and a lone item one for itself. `write` answers one value per item, in order.
 * A batch that fails is written again item by item, so one bad item never fails the others.
 */
export function groupCommitter<Item, Answer>(write: (db: Db, items: Item[]) => Promise<Answer[]>): (db: Db, item: Item) => Promise<Answer> {
  const queues = new WeakMap<Db, { waiting: Array<Waiting<Item, Answer>>; flushing: boolean }>();

  async function flush(db: Db, queue: { waiting: Array<Waiting<Item, Answer>>; flushing: boolean }): Promise<void> {
    queue.flushing = true;
    try {
      while (queue.waiting.length > 0) {
        const batch = queue.waiting.splice(0, MAX_BATCH);
        try {
          const answers = await write(
            db,
            batch.map((w) => w.item),
          );
          batch.forEach((w, i) => w.settle(answers[i]!));
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.fail(error);
            continue;
          }
          for (const w of batch) await write(db, [w.item]).then(([answer]) => w.settle(answer!), w.fail);
        }
      }
    } finally {
      queue.flushing = false;
    }
  }

  return (db, item) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = { waiting: [], flushing: false };
      queues.set(db, queue);
    }
    const done = new Promise<Answer>((settle, fail) => queue.waiting.push({ item, settle, fail }));
    if (!queue.flushing) void flush(db, queue);
    return done;
  };
}
