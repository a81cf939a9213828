import { describe, expect, it } from 'vitest';
import { inLanes } from '@/server/services/shared/lanes';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('inLanes', () => {
  it('starts the items in order, never more at once than its lanes, and a slow one holds up only its own lane', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    let running = 0;
    let most = 0;
    await inLanes([0, 1, 2, 3, 4, 5, 6], 3, async (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      await pause(item === 0 ? 60 : 5);
      running -= 1;
      ended.push(item);
    });
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
    expect(ended.at(-1)).toBe(0);
  });

  it('stops taking items when told, and throws the first failure only once every lane has ended', async () => {
    const done: number[] = [];
    const failing = inLanes([0, 1, 2, 3], 2, async (item) => {
      if (item === 0) throw new Error('item 0 failed');
      await pause(20);
      done.push(item);
    });
    await expect(failing).rejects.toThrow('item 0 failed');
    expect(done).toEqual([1, 2, 3]);
    const touched: number[] = [];
    await inLanes([0, 1, 2, 3], 2, async (item) => void touched.push(item), () => touched.length >= 2);
    expect(touched).toEqual([0, 1]);
  });
});
