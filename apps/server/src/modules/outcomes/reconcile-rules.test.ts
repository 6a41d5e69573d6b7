import { RECONCILE_MAX_ROWS, yuanText } from '@lm/shared/reconcile';
import { describe, expect, it } from 'vitest';
import {
  type FileRow,
  type OurLead,
  ourAmount,
  parseCsv,
  parseFileStatus,
  parseOccurredAt,
  parseYuan,
  ReconcileFileError,
  readHeader,
  readReconcileFile,
  reconcile,
  statusAgrees,
} from './reconcile-rules.ts';

describe('parseCsv', () => {
  it('reads plain records, CRLF, LF and a lone CR, and drops a leading BOM', () => {
    expect(parseCsv('\uFEFFa,b\r\n1,2\n3,4\r5,6')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', '2'] },
      { line: 3, cells: ['3', '4'] },
      { line: 4, cells: ['5', '6'] },
    ]);
  });
  it('reads quoted fields with commas, doubled quotes and line breaks; line numbers follow the text', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi"""\n"two\nlines",z\nlast,1\n')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, y', 'say "hi"'] },
      { line: 3, cells: ['two\nlines', 'z'] },
      { line: 5, cells: ['last', '1'] },
    ]);
  });
  it('keeps empty cells and a quote inside an unquoted field', () => {
    expect(parseCsv('a,,c\n5"inch,')).toEqual([
      { line: 1, cells: ['a', '', 'c'] },
      { line: 2, cells: ['5"inch', ''] },
    ]);
  });
  it('throws on a quote left open, naming its line', () => {
    expect(() => parseCsv('a\n"open,1\n2')).toThrow(new ReconcileFileError('第 2 行的引号没有闭合'));
  });
  it('an empty text has no record', () => {
    expect(parseCsv('')).toEqual([]);
  });
});

describe('readHeader', () => {
  it('finds the columns by name or Chinese alias, in any order, ignoring others', () => {
    expect(readHeader(['姓名', ' Status ', 'lead_id', '金额（元）', '发生时间'])).toEqual({
      status: 1,
      leadId: 2,
      amount: 3,
      occurredAt: 4,
    });
    expect(readHeader(['线索编号', '状态'])).toEqual({ leadId: 0, status: 1 });
  });
  it('refuses a missing required column, a repeated one and an amount in fen', () => {
    expect(() => readHeader(['leadId', 'amount'])).toThrow(/缺少 status（状态）/);
    expect(() => readHeader(['a', 'b'])).toThrow(/缺少 leadId（线索编号）、status（状态）/);
    expect(() => readHeader(['leadId', 'status', '状态'])).toThrow(/status（状态） 出现了两次/);
    expect(() => readHeader(['leadId', 'status', 'amountFen'])).toThrow(/须以元为单位/);
    expect(() => readHeader(['leadId', 'status', '金额(分)'])).toThrow(/须以元为单位/);
  });
});

describe('parseFileStatus', () => {
  it('reads our codes in any case and the Chinese words; 未通过 is its own reading', () => {
    expect(parseFileStatus(' Funded ')).toBe('funded');
    expect(parseFileStatus('申请中')).toBe('received');
    expect(parseFileStatus('已授信')).toBe('approved');
    expect(parseFileStatus('已放款')).toBe('funded');
    expect(parseFileStatus('已拒绝')).toBe('declined');
    expect(parseFileStatus('重复')).toBe('duplicate');
    expect(parseFileStatus('未通过')).toBe('not_passed');
    expect(parseFileStatus('放款中?')).toBeNull();
    expect(parseFileStatus('')).toBeNull();
  });
});

describe('parseYuan', () => {
  it('reads yuan exactly into integer fen', () => {
    expect(parseYuan('12345.67')).toEqual({ fen: 1_234_567 });
    expect(parseYuan('0.1')).toEqual({ fen: 10 });
    expect(parseYuan('0.29')).toEqual({ fen: 29 });
    expect(parseYuan('1.')).toEqual({ fen: 100 });
    expect(parseYuan('20000')).toEqual({ fen: 2_000_000 });
    expect(parseYuan(' ¥12,345.60 ')).toEqual({ fen: 1_234_560 });
    expect(parseYuan('￥8000元')).toEqual({ fen: 800_000 });
    expect(parseYuan('100000000')).toEqual({ fen: 10_000_000_000 });
  });
  it('refuses what is not an amount in yuan, with the reason', () => {
    expect(parseYuan('-5')).toEqual({ problem: '金额「-5」不能为负数' });
    expect(parseYuan('1.234')).toEqual({ problem: '金额「1.234」最多两位小数（元）' });
    expect(parseYuan('12a')).toMatchObject({ problem: expect.stringContaining('不是数字') });
    expect(parseYuan('1,2345')).toMatchObject({ problem: expect.stringContaining('不是数字') });
    expect(parseYuan('1e5')).toMatchObject({ problem: expect.stringContaining('不是数字') });
    expect(parseYuan('100000000.01')).toEqual({ problem: '金额「100000000.01」过大' });
  });
  it('yuanText writes fen back exactly', () => {
    expect(yuanText(1_234_567)).toBe('12,345.67 元');
    expect(yuanText(5)).toBe('0.05 元');
    expect(yuanText(10_000_000_000)).toBe('100,000,000.00 元');
  });
});

describe('parseOccurredAt', () => {
  it('reads a Shanghai wall time, a bare day and ISO 8601 with an offset', () => {
    expect(parseOccurredAt('2026-03-01 14:05')).toEqual({ at: '2026-03-01T06:05:00.000Z' });
    expect(parseOccurredAt('2026/3/1 14:05:09')).toEqual({ at: '2026-03-01T06:05:09.000Z' });
    expect(parseOccurredAt('2026-03-01')).toEqual({ at: '2026-02-28T16:00:00.000Z' });
    expect(parseOccurredAt('2026-03-01T14:05:00+08:00')).toEqual({ at: '2026-03-01T06:05:00.000Z' });
    expect(parseOccurredAt('2026-03-01T14:05')).toEqual({ at: '2026-03-01T06:05:00.000Z' });
    expect(parseOccurredAt('2026-03-01T06:05:00Z')).toEqual({ at: '2026-03-01T06:05:00.000Z' });
  });
  it('refuses anything else', () => {
    for (const bad of ['2026-02-30', '2026-03-01 24:00', '昨天', '2026-03-01 14:5', '03/01/2026'])
      expect(parseOccurredAt(bad), bad).toMatchObject({ problem: expect.stringContaining('无法识别') });
  });
});

describe('readReconcileFile', () => {
  it('reads each row into a lead or a bad row with its reason and line, skipping blank lines', () => {
    const csv = [
      'leadId,status,amount,occurredAt',
      'L1,funded,12345.67,2026-03-01 14:05',
      '',
      'L2,申请中,,',
      ',approved,100,',
      'L3,,,',
      'L4,maybe,,',
      'L5,approved,1.234,',
      'L6,approved,100,tomorrow',
      'L1,declined,,',
      ' , ,, ',
    ].join('\n');
    expect(readReconcileFile(csv)).toEqual<FileRow[]>([
      {
        ok: true,
        line: 2,
        leadId: 'L1',
        statusText: 'funded',
        status: 'funded',
        amountFen: 1_234_567,
        occurredAt: '2026-03-01T06:05:00.000Z',
      },
      {
        ok: true,
        line: 4,
        leadId: 'L2',
        statusText: '申请中',
        status: 'received',
        amountFen: null,
        occurredAt: null,
      },
      { ok: false, line: 5, leadId: null, statusText: 'approved', reason: '缺少线索编号 leadId' },
      { ok: false, line: 6, leadId: 'L3', statusText: '', reason: '缺少状态 status' },
      {
        ok: false,
        line: 7,
        leadId: 'L4',
        statusText: 'maybe',
        reason: expect.stringContaining('无法识别的状态「maybe」'),
      },
      { ok: false, line: 8, leadId: 'L5', statusText: 'approved', reason: '金额「1.234」最多两位小数（元）' },
      {
        ok: false,
        line: 9,
        leadId: 'L6',
        statusText: 'approved',
        reason: expect.stringContaining('发生时间「tomorrow」'),
      },
      { ok: false, line: 10, leadId: 'L1', statusText: 'declined', reason: '线索 L1 在第 2 行已出现' },
    ]);
  });
  it('takes a file without the optional columns, and short rows', () => {
    expect(readReconcileFile('\uFEFF线索编号,状态\r\nL1,已授信\r\nL2')).toEqual([
      {
        ok: true,
        line: 2,
        leadId: 'L1',
        statusText: '已授信',
        status: 'approved',
        amountFen: null,
        occurredAt: null,
      },
      { ok: false, line: 3, leadId: 'L2', statusText: '', reason: '缺少状态 status' },
    ]);
  });
  it('refuses an empty file, a file without its header and one over the row limit', () => {
    expect(() => readReconcileFile('\n \n')).toThrow(new ReconcileFileError('对账文件是空的'));
    expect(() => readReconcileFile('L1,funded\nL2,funded')).toThrow(/第一行须为表头/);
    const big = `leadId,status\n${'L,funded\n'.repeat(RECONCILE_MAX_ROWS + 1)}`;
    expect(() => readReconcileFile(big)).toThrow(/最多 20000 行/);
  });
});

const lead = (leadId: string, over: Partial<OurLead> = {}): OurLead => ({
  recordId: Number(leadId.replace(/\D/g, '')) || 99,
  userId: 100 + (Number(leadId.replace(/\D/g, '')) || 99),
  leadId,
  status: null,
  approvedLimitFen: null,
  fundedAmountFen: null,
  deliveredAt: new Date('2026-03-01T02:00:00Z'),
  ...over,
});
const row = (leadId: string, over: Partial<Extract<FileRow, { ok: true }>> = {}): FileRow => ({
  ok: true,
  line: 2,
  leadId,
  statusText: 'received',
  status: 'received',
  amountFen: null,
  occurredAt: null,
  ...over,
});

describe('statusAgrees and ourAmount', () => {
  it('申请中 agrees with nothing reported and received; 未通过 with declined and duplicate; the rest exactly', () => {
    expect(statusAgrees('received', null)).toBe(true);
    expect(statusAgrees('received', 'received')).toBe(true);
    expect(statusAgrees('received', 'approved')).toBe(false);
    expect(statusAgrees('not_passed', 'declined')).toBe(true);
    expect(statusAgrees('not_passed', 'duplicate')).toBe(true);
    expect(statusAgrees('not_passed', null)).toBe(false);
    expect(statusAgrees('declined', 'duplicate')).toBe(false);
    expect(statusAgrees('funded', 'funded')).toBe(true);
    expect(statusAgrees('approved', null)).toBe(false);
    expect(statusAgrees('duplicate', 'duplicate')).toBe(true);
  });
  it('our amount is the approval’s limit or the funded amount', () => {
    const l = lead('L1', { approvedLimitFen: 100, fundedAmountFen: 200 });
    expect(ourAmount(l, 'approved')).toBe(100);
    expect(ourAmount(l, 'funded')).toBe(200);
    expect(ourAmount(l, 'declined')).toBeNull();
    expect(ourAmount(l, null)).toBeNull();
  });
});

describe('reconcile', () => {
  it('a row that agrees is matched: statuses (申请中 with nothing reported), amounts, 未通过', () => {
    const ours = new Map([
      ['L1', lead('L1')],
      ['L2', lead('L2', { status: 'funded', fundedAmountFen: 500_000, approvedLimitFen: 900_000 })],
      ['L3', lead('L3', { status: 'duplicate' })],
      ['L4', lead('L4', { status: 'approved', approvedLimitFen: 100 })],
    ]);
    const r = reconcile(
      [
        row('L1'),
        row('L2', { status: 'funded', statusText: '已放款', amountFen: 500_000 }),
        row('L3', { status: 'not_passed', statusText: '未通过' }),
        row('L4', { status: 'approved', statusText: 'approved' }),
      ],
      ours,
      [],
      10,
    );
    expect(r).toEqual({
      totals: {
        rows: 4,
        matched: 4,
        disagreements: 0,
        unknownLead: 0,
        statusDiffers: 0,
        amountDiffers: 0,
        missingInFile: 0,
        badRows: 0,
      },
      disagreements: [],
      truncated: false,
    });
  });

  it('an unknown lead (or another lender’s: not in ours) is listed with the file’s side only', () => {
    const r = reconcile(
      [row('X9', { line: 7, status: 'funded', statusText: 'funded', amountFen: 1 })],
      new Map(),
      [],
      10,
    );
    expect(r.totals).toMatchObject({ rows: 1, matched: 0, unknownLead: 1, disagreements: 1 });
    expect(r.disagreements).toEqual([
      {
        kind: 'unknown_lead',
        line: 7,
        leadId: 'X9',
        userId: null,
        theirs: { statusText: 'funded', status: 'funded', amountFen: 1, occurredAt: null },
        ours: null,
        text: '我方没有推送给该机构的线索 X9（编号有误，或是其他机构的线索）',
      },
    ]);
  });

  it('a status that differs names both sides in words, with our amount of our status', () => {
    const ours = new Map([['L5', lead('L5', { status: 'approved', approvedLimitFen: 2_000_000 })]]);
    const r = reconcile(
      [row('L5', { line: 3, status: 'funded', statusText: '已放款', amountFen: 1_000_000 })],
      ours,
      [],
      10,
    );
    expect(r.totals).toMatchObject({ statusDiffers: 1, matched: 0 });
    expect(r.disagreements[0]).toEqual({
      kind: 'status_differs',
      line: 3,
      leadId: 'L5',
      userId: 105,
      theirs: { statusText: '已放款', status: 'funded', amountFen: 1_000_000, occurredAt: null },
      ours: { status: 'approved', amountFen: 2_000_000, deliveredAt: '2026-03-01T02:00:00.000Z' },
      text: '机构为「已放款」，我方为「已授信」',
    });
    // Nothing reported yet, the file says declined.
    const r2 = reconcile(
      [row('L1', { status: 'declined', statusText: '已拒绝' })],
      new Map([['L1', lead('L1')]]),
      [],
      10,
    );
    expect(r2.disagreements[0]!.text).toBe('机构为「已拒绝」，我方为「申请中（机构尚未反馈）」');
  });

  it('an amount that differs (statuses agreeing) is listed; an absent amount is not compared', () => {
    const ours = new Map([
      ['L1', lead('L1', { status: 'funded', fundedAmountFen: 1_234_567 })],
      ['L2', lead('L2', { status: 'approved', approvedLimitFen: 2_000_000 })],
      ['L3', lead('L3', { status: 'funded', fundedAmountFen: 10 })],
      ['L4', lead('L4', { status: 'approved', approvedLimitFen: null })],
    ]);
    const r = reconcile(
      [
        row('L1', { line: 2, status: 'funded', statusText: 'funded', amountFen: 1_234_500 }),
        row('L2', { line: 3, status: 'approved', statusText: '已授信', amountFen: 2_000_000 }),
        row('L3', { line: 4, status: 'funded', statusText: 'funded', amountFen: null }),
        row('L4', { line: 5, status: 'approved', statusText: 'approved', amountFen: 300 }),
      ],
      ours,
      [],
      10,
    );
    expect(r.totals).toMatchObject({ rows: 4, matched: 2, amountDiffers: 2, disagreements: 2 });
    expect(r.disagreements.map((d) => [d.kind, d.line, d.text])).toEqual([
      ['amount_differs', 2, '放款金额：机构为 12,345.00 元，我方为 12,345.67 元'],
      ['amount_differs', 5, '授信额度：机构为 3.00 元，我方为 未填写'],
    ]);
    expect(r.disagreements[0]!.ours).toEqual({
      status: 'funded',
      amountFen: 1_234_567,
      deliveredAt: '2026-03-01T02:00:00.000Z',
    });
  });

  it('a lead of ours the file should hold and leaves out is listed after the rows', () => {
    const inFile = lead('L1', { status: 'approved' });
    const r = reconcile(
      [
        row('L1', { status: 'approved', statusText: 'approved' }),
        { ok: false, line: 3, leadId: 'L2', statusText: 'x', reason: 'r' },
      ],
      new Map([['L1', inFile]]),
      [inFile, lead('L2', { status: 'declined' }), lead('L3', { status: 'funded', fundedAmountFen: 700 })],
      10,
    );
    expect(r.totals).toMatchObject({ rows: 2, matched: 1, badRows: 1, missingInFile: 1, disagreements: 2 });
    expect(r.disagreements[1]).toEqual({
      kind: 'missing_in_file',
      line: null,
      leadId: 'L3',
      userId: 103,
      theirs: null,
      ours: { status: 'funded', amountFen: 700, deliveredAt: '2026-03-01T02:00:00.000Z' },
      text: '我方记录为「已放款」（2026-03-01 10:00 推送），机构文件中没有这条线索',
    });
  });

  it('a bad row is listed with its line and reason, with our side when it names a lead of ours', () => {
    const r = reconcile(
      [
        { ok: false, line: 4, leadId: 'L1', statusText: 'maybe', reason: '无法识别的状态「maybe」' },
        { ok: false, line: 5, leadId: null, statusText: '', reason: '缺少线索编号 leadId' },
      ],
      new Map([['L1', lead('L1', { status: 'received' })]]),
      [],
      10,
    );
    expect(r.totals).toMatchObject({ rows: 2, matched: 0, badRows: 2 });
    expect(r.disagreements).toEqual([
      {
        kind: 'bad_row',
        line: 4,
        leadId: 'L1',
        userId: 101,
        theirs: { statusText: 'maybe', status: null, amountFen: null, occurredAt: null },
        ours: { status: 'received', amountFen: null, deliveredAt: '2026-03-01T02:00:00.000Z' },
        text: '第 4 行无法读取：无法识别的状态「maybe」',
      },
      {
        kind: 'bad_row',
        line: 5,
        leadId: null,
        userId: null,
        theirs: null,
        ours: null,
        text: '第 5 行无法读取：缺少线索编号 leadId',
      },
    ]);
  });

  it('lists at most maxListed, counting every disagreement in the totals', () => {
    const rows = Array.from({ length: 5 }, (_, i) => row(`U${i}`, { line: i + 2 }));
    const r = reconcile(rows, new Map(), [lead('L1', { status: 'funded' })], 3);
    expect(r.totals).toMatchObject({ rows: 5, unknownLead: 5, missingInFile: 1, disagreements: 6 });
    expect(r.disagreements.map((d) => d.leadId)).toEqual(['U0', 'U1', 'U2']);
    expect(r.truncated).toBe(true);
    expect(reconcile(rows, new Map(), [], 5).truncated).toBe(false);
  });

  it('rows read = matched + every kind of row disagreement', () => {
    const ours = new Map([
      ['A', lead('A', { status: 'funded', fundedAmountFen: 5 })],
      ['B', lead('B', { status: 'approved', approvedLimitFen: 5 })],
      ['C', lead('C')],
    ]);
    const r = reconcile(
      [
        row('A', { status: 'funded', amountFen: 6 }),
        row('B', { status: 'funded' }),
        row('C'),
        row('D'),
        { ok: false, line: 9, leadId: null, statusText: '', reason: 'r' },
      ],
      ours,
      [],
      100,
    );
    const t = r.totals;
    expect(t.rows).toBe(t.matched + t.unknownLead + t.statusDiffers + t.amountDiffers + t.badRows);
    expect([t.matched, t.unknownLead, t.statusDiffers, t.amountDiffers, t.badRows]).toEqual([1, 1, 1, 1, 1]);
  });
});
