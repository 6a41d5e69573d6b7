import { describe, expect, it } from 'vitest';
import { type ClickRow, compareKeys } from './clicks.ts';

const row = (adChannelCode: string, fingerprintHash: string | null, day = '2026-11-26'): ClickRow => ({
  adChannelCode,
  fingerprintHash,
  day,
  abTestType: null,
  ip: '127.0.0.1',
});

describe('click batches are written in the unique key’s order', () => {
  it('sorts by channel, fingerprint hash, day; rows without a fingerprint last', () => {
    // Two instances writing overlapping clicks in different orders deadlocked on PostgreSQL (CI,
    // 2026-11-26): every batch takes its keys in this one order instead.
    const rows = [
      row('b', 'h1'),
      row('a', null),
      row('a', 'h2'),
      row('a', 'h1', '2026-11-27'),
      row('a', 'h1'),
    ];
    const sorted = [...rows].sort(compareKeys).map((r) => `${r.adChannelCode}/${r.fingerprintHash}/${r.day}`);
    expect(sorted).toEqual([
      'a/h1/2026-11-26',
      'a/h1/2026-11-27',
      'a/h2/2026-11-26',
      'a/null/2026-11-26',
      'b/h1/2026-11-26',
    ]);
    // The same order whatever order the batch arrived in.
    expect([...rows].reverse().sort(compareKeys)).toEqual([...rows].sort(compareKeys));
  });
});
