import { describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { keyedGroupCommitter } from '@/server/services/shared/group-commit';

/** A write that records each batch it is given and answers when the test releases it. */
function recordingWrite() {
  const batches: string[][] = [];
  const releases: Array<() => void> = [];
  const write = async (_db: Db, items: string[]) => {
    batches.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    if (items.includes('bad')) throw new Error('bad item');
    return items.map((item) => `${item}!`);
  };
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batches, write, releaseAll };
}

const db = {} as Db;

describe('keyedGroupCommitter', () => {
  it('writes a lone item at once, and the items of one key that arrive meanwhile together next', async () => {
    const { batches, write, releaseAll } = recordingWrite();
    const commit = keyedGroupCommitter(write);
    const first = commit(db, 'org-a', 'a1');
    expect(batches).toEqual([['a1']]);
    const later = ['a2', 'a3', 'a4'].map((item) => commit(db, 'org-a', item));
    const other = commit(db, 'org-b', 'b1');
    // Another key never waits for this one's write.
    expect(batches).toEqual([['a1'], ['b1']]);
    await new Promise((resolve) => setImmediate(resolve));
    await releaseAll();
    await releaseAll();
    expect(await first).toBe('a1!');
    expect(await Promise.all(later)).toEqual(['a2!', 'a3!', 'a4!']);
    expect(await other).toBe('b1!');
    expect(batches).toEqual([['a1'], ['b1'], ['a2', 'a3', 'a4']]);
  });

  it('writes at most maxBatch items together, in arrival order', async () => {
    const { batches, write, releaseAll } = recordingWrite();
    const commit = keyedGroupCommitter(write, 2);
    const all = ['x1', 'x2', 'x3', 'x4', 'x5'].map((item) => commit(db, 'k', item));
    for (let i = 0; i < 5; i += 1) await releaseAll();
    expect(await Promise.all(all)).toEqual(['x1!', 'x2!', 'x3!', 'x4!', 'x5!']);
    expect(batches).toEqual([['x1'], ['x2', 'x3'], ['x4', 'x5']]);
  });

  it('writes a failed batch again item by item, so one bad item fails alone', async () => {
    const { batches, write, releaseAll } = recordingWrite();
    const commit = keyedGroupCommitter(write);
    const first = commit(db, 'k', 'ok0');
    const good = commit(db, 'k', 'ok1');
    const bad = commit(db, 'k', 'bad');
    const settled = Promise.allSettled([first, good, bad]);
    for (let i = 0; i < 6; i += 1) await releaseAll();
    const [a, b, c] = await settled;
    expect(a).toEqual({ status: 'fulfilled', value: 'ok0!' });
    expect(b).toEqual({ status: 'fulfilled', value: 'ok1!' });
    expect(c).toMatchObject({ status: 'rejected', reason: new Error('bad item') });
    expect(batches).toEqual([['ok0'], ['ok1', 'bad'], ['ok1'], ['bad']]);
  });

  it('starts afresh once a key has nothing waiting', async () => {
    const { batches, write, releaseAll } = recordingWrite();
    const commit = keyedGroupCommitter(write);
    const one = commit(db, 'k', 'one');
    await releaseAll();
    expect(await one).toBe('one!');
    await new Promise((resolve) => setImmediate(resolve));
    const two = commit(db, 'k', 'two');
    // Written at once: nothing was in flight for the key.
    expect(batches).toEqual([['one'], ['two']]);
    await releaseAll();
    expect(await two).toBe('two!');
  });
});
