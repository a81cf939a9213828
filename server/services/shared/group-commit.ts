import type { Db } from '@/db/client';

interface Waiting<Item, Answer> {
  item: Item;
  settle: (answer: Answer) => void;
  fail: (error: unknown) => void;
}

interface Queue<Item, Answer> {
  waiting: Array<Waiting<Item, Answer>>;
  flushing: boolean;
}

const MAX_BATCH = 64;

type Write<Item, Answer> = (db: Db, items: Item[]) => Promise<Answer[]>;

async function flush<Item, Answer>(write: Write<Item, Answer>, db: Db, queue: Queue<Item, Answer>, maxBatch: number): Promise<void> {
  queue.flushing = true;
  try {
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, maxBatch);
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

function enqueue<Item, Answer>(queue: Queue<Item, Answer>, item: Item, start: () => Promise<void>): Promise<Answer> {
  const done = new Promise<Answer>((settle, fail) => queue.waiting.push({ item, settle, fail }));
  if (!queue.flushing) void start();
  return done;
}

/**
 * Writes items one statement per batch: items arriving while a write is under way go together in
 * the next one (group commit), so many workers finishing at once pay one round trip and one
 * commit per batch, and a lone item one for itself. `write` answers one value per item, in order.
 * A batch that fails is written again item by item, so one bad item never fails the others.
 */
export function groupCommitter<Item, Answer>(write: Write<Item, Answer>): (db: Db, item: Item) => Promise<Answer> {
  const queues = new WeakMap<Db, Queue<Item, Answer>>();
  return (db, item) => {
    let queue = queues.get(db);
    if (!queue) {
      queue = { waiting: [], flushing: false };
      queues.set(db, queue);
    }
    const ready = queue;
    return enqueue(ready, item, () => flush(write, db, ready, MAX_BATCH));
  };
}

/**
 * The same, one queue per key: only items of the same key (an organization, say) are written
 * together, and a key's queue is forgotten once it is empty, so keys cost nothing at rest.
 */
export function keyedGroupCommitter<Item, Answer>(write: Write<Item, Answer>, maxBatch = MAX_BATCH): (db: Db, key: string, item: Item) => Promise<Answer> {
  const queues = new WeakMap<Db, Map<string, Queue<Item, Answer>>>();
  return (db, key, item) => {
    let byKey = queues.get(db);
    if (!byKey) {
      byKey = new Map();
      queues.set(db, byKey);
    }
    let queue = byKey.get(key);
    if (!queue) {
      queue = { waiting: [], flushing: false };
      byKey.set(key, queue);
    }
    const ready = queue;
    const keys = byKey;
    return enqueue(ready, item, () =>
      flush(write, db, ready, maxBatch).finally(() => {
        if (!ready.flushing && ready.waiting.length === 0 && keys.get(key) === ready) keys.delete(key);
      }),
    );
  };
}
