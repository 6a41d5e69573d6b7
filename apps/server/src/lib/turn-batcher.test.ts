import { describe, expect, it } from 'vitest';
import { TurnBatcher } from './turn-batcher.ts';

/** A store whose sends wait until released, recording each batch. */
function slowStore<T>() {
  const batches: T[][] = [];
  const waiting: (() => void)[] = [];
  const send = (batch: T[]) => {
    batches.push(batch);
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const releaseAll = () => {
    for (const release of waiting.splice(0)) release();
  };
  return { batches, send, releaseAll };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('TurnBatcher', () => {
  it('sends what one turn queued in one batch, cut at maxBatch', async () => {
    const store = slowStore<number>();
    const b = new TurnBatcher(store.send, 3, 10);
    for (let i = 0; i < 7; i++) b.push(i);
    expect(store.batches).toEqual([]); // nothing before the turn ends
    await turn();
    expect(store.batches).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  });

  it('holds more batches than maxInFlight until one is answered: a slow store gets bigger batches', async () => {
    const store = slowStore<number>();
    const b = new TurnBatcher(store.send, 100, 1);
    b.push(1);
    await turn();
    b.push(2);
    await turn();
    b.push(3);
    await turn();
    expect(store.batches).toEqual([[1]]);
    store.releaseAll();
    await turn();
    await turn();
    expect(store.batches).toEqual([[1], [2, 3]]);
  });

  it('keeps items that are not alike in separate batches, in order', async () => {
    const store = slowStore<{ day: string; n: number }>();
    const b = new TurnBatcher(store.send, 100, 10, (first, other) => other.day === first.day);
    for (const [day, n] of [
      ['26', 1],
      ['26', 2],
      ['27', 3],
      ['26', 4],
    ] as const) {
      b.push({ day, n });
    }
    await turn();
    expect(store.batches.map((batch) => batch.map((x) => x.n))).toEqual([[1, 2], [3], [4]]);
  });
});
