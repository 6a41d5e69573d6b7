import { shanghaiDayStart } from '@lm/shared/time';
import { describe, expect, it } from 'vitest';
import {
  byNewest,
  type ChannelCostRow,
  costRef,
  dailyCosts,
  endedDays,
  judgeSpendRows,
  type KnownChannel,
  parseFen,
  parseSpendDay,
  readSpendFile,
  readSpendHeader,
  SpendFileError,
  spendDelta,
} from './rules.ts';

const row = (
  id: number,
  model: ChannelCostRow['model'],
  day: string,
  amountFen: number | null = null,
): ChannelCostRow => ({ id, model, effectiveFrom: shanghaiDayStart(day), amountFen });

describe('endedDays', () => {
  it('yesterday back to maxBack days ago, oldest first; never today', () => {
    expect(endedDays('2026-03-02', 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(endedDays('2026-03-02', 1)).toEqual(['2026-03-01']);
    expect(endedDays('2026-03-02', 0)).toEqual([]);
    expect(endedDays('2026-12-05')).toHaveLength(62);
    expect(endedDays('2026-12-05').at(-1)).toBe('2026-12-04');
  });
});

describe('byNewest', () => {
  it('the latest effective day first, then the later-added', () => {
    const rows = [
      row(1, 'cpc', '2026-12-01'),
      row(3, 'spend', '2026-12-10'),
      row(2, 'cpa_lead', '2026-12-10'),
    ];
    expect(rows.sort(byNewest).map((r) => r.id)).toEqual([3, 2, 1]);
  });
});

describe('dailyCosts', () => {
  const counts = (m: Partial<Record<'cpc' | 'cpa_register' | 'cpa_lead', [string, number][]>>) => ({
    cpc: new Map(m.cpc ?? []),
    cpa_register: new Map(m.cpa_register ?? []),
    cpa_lead: new Map(m.cpa_lead ?? []),
  });

  it('count × the fen of the row in force at the start of each day, referenced per model, channel and day', () => {
    const rows = [row(1, 'cpc', '2026-12-01', 50), row(2, 'cpc', '2026-12-03', 80)];
    const out = dailyCosts(
      7,
      rows,
      ['2026-12-01', '2026-12-02', '2026-12-03'],
      counts({
        cpc: [
          ['2026-12-01', 10],
          ['2026-12-02', 3],
          ['2026-12-03', 4],
        ],
      }),
      new Set(),
    );
    expect(out.map((c) => [c.reference, c.quantity, c.amountFen, c.priceId])).toEqual([
      ['cpc:7:2026-12-01', 10, 500, 1],
      ['cpc:7:2026-12-02', 3, 150, 1],
      ['cpc:7:2026-12-03', 4, 320, 2],
    ]);
    expect(out[0]!.eventAt.toISOString()).toBe('2026-11-30T16:00:00.000Z');
    expect(out[0]!.eventMonth).toBe('2026-12');
  });

  it('the day’s month: the first of a month belongs to it (not the UTC month before)', () => {
    const out = dailyCosts(
      1,
      [row(1, 'cpa_register', '2026-11-01', 1000)],
      ['2026-12-01'],
      counts({ cpa_register: [['2026-12-01', 2]] }),
      new Set(),
    );
    expect(out[0]).toMatchObject({ eventMonth: '2026-12', amountFen: 2000, model: 'cpa_register' });
  });

  it('one model at a time: a switch of model takes the new model’s count from its day', () => {
    const rows = [row(1, 'cpc', '2026-12-01', 10), row(2, 'cpa_lead', '2026-12-02', 3000)];
    const out = dailyCosts(
      1,
      rows,
      ['2026-12-01', '2026-12-02'],
      counts({
        cpc: [
          ['2026-12-01', 5],
          ['2026-12-02', 99],
        ],
        cpa_lead: [
          ['2026-12-01', 7],
          ['2026-12-02', 2],
        ],
      }),
      new Set(),
    );
    expect(out.map((c) => c.reference)).toEqual(['cpc:1:2026-12-01', 'cpa_lead:1:2026-12-02']);
    expect(out[1]!.amountFen).toBe(6000);
  });

  it('nothing before the first row, under rev_share or spend, on a day with no event, or when booked', () => {
    const rows = [
      row(1, 'cpc', '2026-12-02', 10),
      row(2, 'rev_share', '2026-12-04'),
      row(3, 'spend', '2026-12-05'),
    ];
    rows[1]!.amountFen = null;
    const days = ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05'];
    const all = counts({ cpc: days.map((d) => [d, 1] as [string, number]) });
    expect(dailyCosts(1, rows, days, all, new Set()).map((c) => c.day)).toEqual(['2026-12-02', '2026-12-03']);
    expect(dailyCosts(1, rows, days, all, new Set(['cpc:1:2026-12-02'])).map((c) => c.day)).toEqual([
      '2026-12-03',
    ]);
    expect(dailyCosts(1, rows, days, counts({ cpc: [['2026-12-03', 0]] }), new Set())).toEqual([]);
    expect(dailyCosts(1, [], days, all, new Set())).toEqual([]);
  });

  it('a price of 0 fen books the count at 0 (the events still show on the statement)', () => {
    const out = dailyCosts(
      1,
      [row(1, 'cpc', '2026-12-01', 0)],
      ['2026-12-01'],
      counts({ cpc: [['2026-12-01', 4]] }),
      new Set(),
    );
    expect(out[0]).toMatchObject({ quantity: 4, amountFen: 0 });
  });
});

describe('costRef', () => {
  it('references per model, channel and day; spend per import', () => {
    expect(costRef.daily('cpa_lead', 3, '2026-12-01')).toBe('cpa_lead:3:2026-12-01');
    expect(costRef.spend(3, '2026-12-01', 9)).toBe('spend:3:2026-12-01:9');
    expect(costRef.spend(3, '2026-12-01', 9).startsWith(costRef.spendPrefix(3, '2026-12-01'))).toBe(true);
  });
});

describe('spend file: header', () => {
  it('English and Chinese names, full-width brackets, any case and spacing', () => {
    expect(readSpendHeader(['date', 'adChannelCode', 'spend_yuan'])).toEqual({
      date: 0,
      channelCode: 1,
      yuan: 2,
    });
    expect(readSpendHeader(['日期', '渠道编码', '消耗（元）'])).toEqual({ date: 0, channelCode: 1, yuan: 2 });
    expect(readSpendHeader(['备注', ' 渠道编码 ', '日期', '消耗(分)'])).toEqual({
      date: 2,
      channelCode: 1,
      fen: 3,
    });
    expect(readSpendHeader(['Date', 'channel_code', '金额(元)'])).toEqual({
      date: 0,
      channelCode: 1,
      yuan: 2,
    });
  });

  it('refuses a missing column, a repeated one, or both amount units', () => {
    expect(() => readSpendHeader(['date', 'spend_yuan'])).toThrow(/缺少 adChannelCode/);
    expect(() => readSpendHeader(['date', 'adChannelCode'])).toThrow(/缺少 消耗金额列/);
    expect(() => readSpendHeader(['日期', '日期', '渠道编码', '消耗'])).toThrow(/出现了两次/);
    expect(() => readSpendHeader(['日期', '渠道编码', '消耗(元)', '消耗(分)'])).toThrow(/只保留一列/);
    expect(() => readSpendHeader(['x'])).toThrow(SpendFileError);
  });
});

describe('spend file: cells', () => {
  it('days as people write them; not a calendar day → null', () => {
    expect(parseSpendDay('2026-12-05')).toBe('2026-12-05');
    expect(parseSpendDay(' 2026/3/1 ')).toBe('2026-03-01');
    expect(parseSpendDay('2026.3.1')).toBe('2026-03-01');
    expect(parseSpendDay('20260301')).toBe('2026-03-01');
    expect(parseSpendDay('2026-02-30')).toBeNull();
    expect(parseSpendDay('2026-13-01')).toBeNull();
    expect(parseSpendDay('昨天')).toBeNull();
    expect(parseSpendDay('')).toBeNull();
    expect(parseSpendDay('2026-12-05 10:00')).toBeNull();
  });

  it('fen: whole non-negative numbers only', () => {
    expect(parseFen('123456')).toEqual({ fen: 123456 });
    expect(parseFen('1,234,567')).toEqual({ fen: 1234567 });
    expect(parseFen('100.00')).toEqual({ fen: 100 });
    expect(parseFen('0')).toEqual({ fen: 0 });
    expect(parseFen('12.5')).toEqual({ problem: '消耗「12.5」以分为单位，须为整数' });
    expect(parseFen('-5')).toEqual({ problem: '消耗「-5」不能为负数' });
    expect(parseFen('abc')).toMatchObject({ problem: expect.stringContaining('不是数字') });
    expect(parseFen('99999999999999')).toMatchObject({ problem: expect.stringContaining('过大') });
  });

  it('reads the rows after the header, blank lines skipped, a BOM and quotes taken', () => {
    const rows = readSpendFile(
      '\ufeff日期,渠道编码,消耗(元)\r\n2026-12-01,demo,"1,234.50"\r\n\r\n2026-12-02, demo ,8\r\n',
    );
    expect(rows).toEqual([
      { line: 2, date: '2026-12-01', channelCode: 'demo', amount: '1,234.50', unit: 'yuan' },
      { line: 4, date: '2026-12-02', channelCode: 'demo', amount: '8', unit: 'yuan' },
    ]);
    expect(readSpendFile('date,adChannelCode,spend_fen\n2026-12-01,a')[0]).toEqual({
      line: 2,
      date: '2026-12-01',
      channelCode: 'a',
      amount: '',
      unit: 'fen',
    });
  });

  it('refuses an empty file, an unclosed quote, too many rows', () => {
    expect(() => readSpendFile('  \n\n')).toThrow(/空/);
    expect(() => readSpendFile('date,adChannelCode,spend_yuan\n"2026-12-01,a,1')).toThrow(/引号/);
    const big = `date,adChannelCode,spend_yuan\n${'2026-12-01,a,1\n'.repeat(20_001)}`;
    expect(() => readSpendFile(big)).toThrow(/最多 20000 行/);
  });
});

describe('judgeSpendRows', () => {
  const today = '2026-12-10';
  const channels = new Map<string, KnownChannel>([
    ['free', { id: 1, code: 'free', costs: [] }],
    ['spent', { id: 2, code: 'spent', costs: [row(20, 'spend', '2026-12-01')] }],
    ['cpc', { id: 3, code: 'cpc', costs: [row(30, 'cpc', '2026-12-05', 50)] }],
    ['share', { id: 4, code: 'share', costs: [row(40, 'rev_share', '2026-12-01')] }],
    [
      'lead',
      {
        id: 5,
        code: 'lead',
        costs: [row(50, 'cpa_lead', '2026-12-01', 100), row(51, 'spend', '2026-12-08')],
      },
    ],
  ]);
  const judge = (csv: string) =>
    judgeSpendRows(readSpendFile(`date,adChannelCode,spend_yuan\n${csv}`), today, channels);

  it('accepts a channel with no cost row or with spend in force, in fen exactly', () => {
    expect(judge('2026-12-09,free,1234.56\n2026-12-10,spent,0')).toEqual([
      { line: 2, day: '2026-12-09', channelCode: 'free', amountFen: 123456, channelId: 1, status: 'ok' },
      { line: 3, day: '2026-12-10', channelCode: 'spent', amountFen: 0, channelId: 2, status: 'ok' },
    ]);
  });

  it('rejects each bad row with its reason in words', () => {
    const out = judge(
      [
        '2026-02-30,free,1',
        ',free,1',
        '2026-12-11,free,1',
        '2026-12-09,,1',
        '2026-12-09,nosuch,1',
        '2026-12-09,free,-1',
        '2026-12-09,free,1.234',
        '2026-12-09,free,',
        '2026-12-09,free,一百',
      ].join('\n'),
    );
    expect(out.map((r) => [r.line, r.status, r.reason])).toEqual([
      [2, 'rejected', '日期「2026-02-30」无法识别（如 2026-12-05）'],
      [3, 'rejected', '日期为空'],
      [4, 'rejected', '日期 2026-12-11 是未来的日期（北京时间今天是 2026-12-10）'],
      [5, 'rejected', '渠道编码为空'],
      [6, 'rejected', '渠道编码「nosuch」不存在'],
      [7, 'rejected', '金额「-1」不能为负数'],
      [8, 'rejected', '金额「1.234」最多两位小数（元）'],
      [9, 'rejected', '消耗为空'],
      [10, 'rejected', expect.stringContaining('不是数字')],
    ]);
    expect(out.every((r) => r.channelId === null)).toBe(true);
  });

  it('rejects a channel billed per event or by revenue share that day, accepts it on a spend day', () => {
    const out = judge(
      '2026-12-05,cpc,10\n2026-12-04,cpc,10\n2026-12-02,share,1\n2026-12-07,lead,1\n2026-12-08,lead,1',
    );
    expect(out.map((r) => [r.status, r.reason])).toEqual([
      ['rejected', '该渠道当日按「按点击 CPC」计费，消耗不计入成本'],
      ['ok', undefined],
      ['rejected', '该渠道当日按「收入分成」计费，消耗不计入成本'],
      ['rejected', '该渠道当日按「按线索 CPA」计费，消耗不计入成本'],
      ['ok', undefined],
    ]);
  });

  it('rejects every row of a (day, channel) given twice; other days and channels stay', () => {
    const out = judge(
      '2026-12-09,free,1\n2026-12-09,free,2\n2026-12-08,free,3\n2026-12-09,spent,4\n2026/12/9,free,5',
    );
    expect(out.map((r) => [r.line, r.status, r.reason ?? ''])).toEqual([
      [2, 'rejected', '与第 3、6 行重复：同一文件中同一渠道同一天只能有一行消耗'],
      [3, 'rejected', '与第 2、6 行重复：同一文件中同一渠道同一天只能有一行消耗'],
      [4, 'ok', ''],
      [5, 'ok', ''],
      [6, 'rejected', '与第 2、3 行重复：同一文件中同一渠道同一天只能有一行消耗'],
    ]);
  });

  it('a rejected row does not make a duplicate of an accepted one', () => {
    const out = judge('2026-12-09,free,1\n2026-12-09,free,-2');
    expect(out.map((r) => r.status)).toEqual(['ok', 'rejected']);
  });

  it('fen files', () => {
    const out = judgeSpendRows(
      readSpendFile('日期,渠道编码,消耗(分)\n2026-12-09,free,12345\n2026-12-08,free,1.5'),
      today,
      channels,
    );
    expect(out.map((r) => [r.amountFen, r.status, r.reason])).toEqual([
      [12345, 'ok', undefined],
      [null, 'rejected', '消耗「1.5」以分为单位，须为整数'],
    ]);
  });
});

describe('spendDelta', () => {
  it('the change to what is booked', () => {
    expect(spendDelta(10_000, 0)).toBe(10_000);
    expect(spendDelta(12_000, 10_000)).toBe(2_000);
    expect(spendDelta(8_000, 10_000)).toBe(-2_000);
    expect(spendDelta(10_000, 10_000)).toBe(0);
  });
});
