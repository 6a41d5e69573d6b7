import { describe, expect, it } from 'vitest';
import { Limiter } from '../limits/limiter.ts';
import { MemoryConfigCache } from './cache.ts';
import type { ChannelRepository } from './repository.ts';
import type { ChannelSource } from './rules.ts';
import { ChannelService } from './service.ts';

const TTL = 30_000;

function row(pageTitle: string): ChannelSource {
  return {
    id: 1,
    adChannelCode: 'c1',
    name: '渠道一',
    channelStatus: 1,
    linkType: 2,
    flags: 'skin9-teal',
    excludeCityCodes: [],
    planTargetUrl: null,
    pageTitle,
    pageIcon: null,
    needsLocation: false,
    trackReport: null,
    allowedHosts: [],
    operatorId: null,
    operator: null,
    skinArms: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  };
}

/** A channel table whose reads (of the row as it was when asked) wait until the test lets them go. */
function table(initial: ChannelSource | undefined) {
  const t = {
    row: initial,
    reads: 0,
    waiting: [] as (() => void)[],
    failing: false,
    async findByCode(): Promise<ChannelSource | undefined> {
      t.reads++;
      const found = t.row;
      await new Promise<void>((resolve) => t.waiting.push(resolve));
      if (t.failing) throw new Error('database gone');
      return found;
    },
    /** Lets the reads waiting go (all, or the one at `index`) and waits for what they started. */
    async answer(index?: number) {
      const go = index === undefined ? t.waiting.splice(0) : t.waiting.splice(index, 1);
      for (const g of go) g();
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    },
  };
  return t;
}

function service(t: ReturnType<typeof table>, clock: { now: number }) {
  const cache = new MemoryConfigCache(TTL, 100, () => clock.now);
  return new ChannelService({
    repo: t as unknown as ChannelRepository,
    cache,
    limiter: new Limiter({} as never, 'database'),
    clicks: { record: async () => false },
    deviceHash: (f) => f,
    fallbackOperator: { companyName: '配置运营有限公司', filingNumber: '粤ICP备2026000099号' },
  });
}

describe('the channel configuration cache under load (ADR 049)', () => {
  it('reads a channel once however many requests miss it at the same moment', async () => {
    const t = table(row('标题一'));
    const s = service(t, { now: 1000 });
    const answers = Promise.all(Array.from({ length: 200 }, () => s.find('c1')));
    expect(t.reads).toBe(1);
    await t.answer();
    const configs = await answers;
    expect(new Set(configs).size).toBe(1);
    expect(configs[0]?.title).toBe('标题一');
    expect(s.peek('c1')).toBe(configs[0]);
  });

  it('answers a stale copy past the TTL while one read replaces it, keeping the object when nothing changed', async () => {
    const t = table(row('标题一'));
    const clock = { now: 1000 };
    const s = service(t, clock);
    const first = s.find('c1');
    await t.answer();
    const held = await first;

    clock.now += TTL + 1;
    // Past the TTL: every request of the moment gets the copy at once, and one read starts.
    for (let i = 0; i < 100; i++) expect(s.peek('c1')).toBe(held);
    expect(await s.find('c1')).toBe(held);
    expect(t.reads).toBe(2);
    await t.answer();
    // Nothing changed: the same object, fresh again (pages made from it stay current).
    expect(s.peek('c1')).toBe(held);
    expect(t.reads).toBe(2);

    // Changed in the table (another instance's edit, no Redis): the next refresh brings the new value.
    t.row = row('标题二');
    clock.now += TTL + 1;
    expect(s.peek('c1')?.title).toBe('标题一');
    await t.answer();
    expect(s.peek('c1')?.title).toBe('标题二');
    expect(s.peek('c1')).not.toBe(held);
  });

  it('answers the stale copy while the database fails, until the grace ends', async () => {
    const t = table(row('标题一'));
    const clock = { now: 1000 };
    const s = service(t, clock);
    const first = s.find('c1');
    await t.answer();
    await first;
    t.failing = true;
    clock.now += TTL + 1;
    expect(s.peek('c1')?.title).toBe('标题一');
    await t.answer();
    // The failed refresh is not shared by the next request: it tries again.
    expect(s.peek('c1')?.title).toBe('标题一');
    expect(t.reads).toBe(3);
    await t.answer();
    // Past TTL and grace: no copy; a request reads the database and gets its error.
    clock.now += TTL;
    expect(s.peek('c1')).toBeUndefined();
    const failed = expect(s.find('c1')).rejects.toThrow('database gone');
    await t.answer();
    await failed;
  });

  it('does not keep what a read found when the channel was edited during it', async () => {
    const t = table(row('旧'));
    const s = service(t, { now: 1000 });
    const before = s.find('c1');
    // A console edit while the read is under way: a new request reads again instead of sharing the old read …
    t.row = row('新');
    await s.invalidate('c1');
    const after = s.find('c1');
    expect(t.reads).toBe(2);
    // … and the old read, answered last, does not put its value back: it goes to its own callers only.
    await t.answer(1);
    await t.answer(0);
    expect((await before)?.title).toBe('旧');
    expect((await after)?.title).toBe('新');
    expect(s.peek('c1')?.title).toBe('新');
  });
});
