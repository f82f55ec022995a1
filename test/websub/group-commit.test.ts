import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../src/websub/group-commit.js';

describe('group commit', () => {
  it('writes items added in the same turn together, and later ones in the next write', async () => {
    const writes: number[][] = [];
    let release: (() => void) | null = null;
    const batcher = createGroupCommit(async (items: number[]) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((r) => (release = r));
      return items.map((i) => i * 10);
    });
    const first = [1, 2, 3].map((i) => batcher.add(i));
    while (!release) await new Promise((r) => setImmediate(r));
    const second = [4, 5].map((i) => batcher.add(i)); // arrive while the first write is in progress
    (release as () => void)();
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 30, 40, 50]);
    expect(writes).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('fails every caller of a failed write, and keeps working afterwards', async () => {
    let fail = true;
    const batcher = createGroupCommit(async (items: string[]) => {
      if (fail) throw new Error('disk full');
      return items.map(() => undefined);
    });
    await expect(Promise.all([batcher.add('a'), batcher.add('b')])).rejects.toThrow('disk full');
    fail = false;
    await expect(batcher.add('c')).resolves.toBeUndefined();
  });
});
