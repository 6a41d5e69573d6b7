import { describe, expect, it } from 'vitest';
import { LineQueue } from './line-queue.ts';
import { seededRandom } from './seeded-random.ts';

describe('LineQueue', () => {
  it('hands lines back in order, joined, as many as asked or as are queued', () => {
    const q = new LineQueue();
    expect(q.take(5)).toBe('');
    q.push('a\tb\n');
    q.push('渠道\t😀\n');
    q.push('c\n');
    expect(q.length).toBe(3);
    expect(q.take(2)).toBe('a\tb\n渠道\t😀\n');
    expect(q.length).toBe(1);
    expect(q.take(10)).toBe('c\n');
    expect(q.length).toBe(0);
    expect(q.take(1)).toBe('');
  });

  it('takes an empty line as a line', () => {
    const q = new LineQueue();
    q.push('');
    q.push('x');
    expect(q.length).toBe(2);
    expect(q.take(1)).toBe('');
    expect(q.take(1)).toBe('x');
  });

  it('matches an array of strings through random pushes and takes, across its growth and compaction', () => {
    // Lines up to 40 KB (past the first 64 KB buffer in two pushes), ASCII, CJK and astral characters; queues
    // of up to ~1 600 lines (past the first 1 024 line ends) that empty now and then, and partial takes that
    // leave taken bytes at the buffer's start for a push to move.
    const random = seededRandom(20261129);
    const alphabet = ['a', 'Z', '0', '\t', '\\', '点', '击', '😀', ' '];
    const line = () => {
      const long = random() < 0.01;
      const n = Math.floor(random() * (long ? 40_000 : 60));
      let s = '';
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
      return `${s}\n`;
    };
    const q = new LineQueue();
    let model: string[] = [];
    for (let step = 0; step < 40_000; step++) {
      // Phases of 2 000 steps that fill the queue, then phases that drain it.
      const filling = Math.floor(step / 2000) % 2 === 0;
      const r = random();
      if (r < (filling ? 0.95 : 0.35) || model.length === 0) {
        const l = line();
        q.push(l);
        model.push(l);
      } else {
        const n = filling
          ? 1 + Math.floor(random() * 5)
          : random() < 0.97
            ? 1 + Math.floor(random() * 20)
            : 1 + Math.floor(random() * 6000);
        const expected = model.slice(0, n).join('');
        model = model.slice(n);
        expect(q.take(n)).toBe(expected);
      }
      expect(q.length).toBe(model.length);
    }
    expect(q.take(model.length)).toBe(model.join(''));
  });
});
