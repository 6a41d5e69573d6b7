import { LEDGER_KIND_LABELS, PARTY_TYPE_LABELS, STATEMENT_STATUS_LABELS } from '@lm/shared/ledger';
import type { StatementDetailData, StatementEntry } from '@lm/shared/schemas/settlement';
import { formatShanghai } from '@lm/shared/time';
import { Table, type TableColumnsType, Tag } from 'antd';
import { entryNote, yuanText } from '../format';

/** While printing: only the statement — no menu, header or buttons of the console. */
const PRINT_CSS = `
@media print {
  .ant-layout-sider, .ant-layout-header, .no-print { display: none !important; }
  .ant-layout, .ant-layout-content { padding: 0 !important; margin: 0 !important; background: #fff !important; }
  .statement-sheet { box-shadow: none !important; border: none !important; padding: 0 !important; }
  .statement-sheet table { font-size: 11px; }
  @page { size: A4; margin: 14mm; }
}
.statement-sheet { background: #fff; padding: 32px; border: 1px solid #f0f0f0; max-width: 1100px; }
.statement-sheet h1 { font-size: 22px; margin: 0 0 4px; text-align: center; }
.statement-sheet .issuer { text-align: center; color: #555; margin-bottom: 20px; }
.statement-sheet dl { display: grid; grid-template-columns: repeat(4, auto 1fr); gap: 6px 12px; margin: 0 0 20px; }
.statement-sheet dt { color: #666; }
.statement-sheet dd { margin: 0; font-weight: 500; }
.statement-sheet .totals { display: flex; flex-wrap: wrap; gap: 8px 32px; border-top: 2px solid #222; border-bottom: 1px solid #ddd; padding: 10px 0; margin-bottom: 16px; }
.statement-sheet .totals strong { font-size: 16px; }
.statement-sheet .sign { display: flex; justify-content: space-between; margin-top: 40px; color: #555; }
`;

function entryColumns(amounts: boolean): TableColumnsType<StatementEntry> {
  return [
    { title: '发生时间', dataIndex: 'eventAt', render: (t: string) => formatShanghai(t) },
    {
      title: '类型',
      key: 'kind',
      render: (_: unknown, e: StatementEntry) => (
        <>
          {LEDGER_KIND_LABELS[e.kind]}
          {e.model ? ` · ${e.model.toUpperCase()}` : ''}
          {e.late && (
            <Tag color="orange" style={{ marginLeft: 6 }} title={`${e.eventMonth} 已关账，补记于本月`}>
              跨月补记 {e.eventMonth}
            </Tag>
          )}
        </>
      ),
    },
    {
      title: '线索',
      key: 'lead',
      render: (_: unknown, e: StatementEntry) => e.leadKey ?? (e.leadId ? `#${e.leadId}` : '—'),
    },
    { title: '产品', dataIndex: 'productName', render: (n: string | null) => n ?? '—' },
    {
      title: '说明',
      key: 'note',
      render: (_: unknown, e: StatementEntry) => entryNote(e),
    },
    ...(amounts
      ? [
          {
            title: '金额',
            key: 'amount',
            align: 'right' as const,
            render: (_: unknown, e: StatementEntry) => yuanText(e.amountFen),
          },
        ]
      : []),
  ];
}

/**
 * A statement as it is printed and sent (issue 48.5): our company as issuer, the party, the month and its
 * status, the totals and every entry. `@media print` leaves the console's menu and header out.
 */
export function StatementSheet({ data }: { data: StatementDetailData }) {
  const s = data.statement;
  const lender = s.party.type === 'lender';
  const amounts = data.amountsShown;
  return (
    <article className="statement-sheet" aria-label="对账单">
      <style>{PRINT_CSS}</style>
      <h1>
        {PARTY_TYPE_LABELS[s.party.type]}对账单 · {data.month}
      </h1>
      <div className="issuer">出具方：{data.issuerName}</div>
      <dl>
        <dt>{lender ? '机构' : '渠道'}</dt>
        <dd>{s.party.name}</dd>
        <dt>编码</dt>
        <dd>{s.party.code}</dd>
        <dt>账期</dt>
        <dd>{data.month}（北京时间）</dd>
        <dt>状态</dt>
        <dd>
          {STATEMENT_STATUS_LABELS[data.status]}
          {data.closedAt
            ? `（${formatShanghai(data.closedAt)}${data.closedByName ? ` ${data.closedByName}` : ''}）`
            : ''}
        </dd>
      </dl>
      <div className="totals">
        {!lender && (
          <>
            <span>
              点击 <strong>{s.clicks ?? 0}</strong>
            </span>
            <span>
              注册 <strong>{s.registrations ?? 0}</strong>
            </span>
          </>
        )}
        <span>
          线索 <strong>{s.leads}</strong>
        </span>
        <span>
          退回 <strong>{s.returned}</strong>
        </span>
        <span>
          授信 <strong>{s.approved}</strong>
        </span>
        <span>
          放款 <strong>{s.funded}</strong>
        </span>
        {amounts && (
          <>
            {lender ? (
              <>
                <span>
                  线索收入 <strong>{yuanText(s.revenueFen)}</strong>
                </span>
                <span>
                  退回冲减 <strong>{yuanText(s.returnedFen)}</strong>
                </span>
              </>
            ) : (
              <span>
                渠道成本 <strong>{yuanText(s.costFen)}</strong>
              </span>
            )}
            <span>
              手工调整 <strong>{yuanText(s.adjustmentFen)}</strong>
            </span>
            <span>
              {lender ? '已收款' : '已付款'} <strong>{yuanText(s.payoutFen)}</strong>
            </span>
            <span>
              {lender ? '应收净额' : '应付净额'} <strong>{yuanText(s.netFen)}</strong>
            </span>
          </>
        )}
      </div>
      <Table<StatementEntry>
        rowKey="id"
        size="small"
        columns={entryColumns(amounts)}
        dataSource={data.entries}
        pagination={false}
        locale={{ emptyText: '本月没有分录' }}
        summary={() =>
          amounts ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={5}>
                合计（{data.entries.length} 笔分录）
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} align="right">
                <strong>{yuanText(s.netFen)}</strong>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
      {s.lateEntries > 0 && (
        <p style={{ marginTop: 12, color: '#666', fontSize: 12 }}>
          标为「跨月补记」的 {s.lateEntries} 笔分录发生在已关账的月份，按规则记入本月。
        </p>
      )}
      <div className="sign">
        <span>出具方（盖章）：{data.issuerName}</span>
        <span>{lender ? '机构' : '渠道'}确认（盖章）：</span>
      </div>
    </article>
  );
}
