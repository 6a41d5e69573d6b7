import type { Statement, StatementsData } from '@lm/shared/schemas/settlement';
import { Table, type TableColumnsType, Typography } from 'antd';
import { Link } from 'react-router';
import { statementPath, yuanText } from '../format';

function money(title: string, key: keyof Statement, tip?: string) {
  return {
    title: tip ? <span title={tip}>{title}</span> : title,
    key,
    align: 'right' as const,
    render: (_: unknown, s: Statement) => yuanText(s[key] as number | undefined),
  };
}

function partyColumn(month: string): TableColumnsType<Statement>[number] {
  return {
    title: '名称',
    key: 'party',
    render: (_: unknown, s: Statement) => (
      <>
        <Link to={statementPath(month, s.party.type, s.party.code)}>{s.party.name}</Link>
        <br />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {s.party.code}
        </Typography.Text>
      </>
    ),
  };
}

function viewColumn(month: string): TableColumnsType<Statement>[number] {
  return {
    title: '对账单',
    key: 'view',
    render: (_: unknown, s: Statement) => (
      <Link
        to={statementPath(month, s.party.type, s.party.code)}
        aria-label={`查看 ${s.party.name} 的对账单`}
      >
        查看 / 打印
      </Link>
    ),
  };
}

const count = (title: string, key: keyof Statement) => ({
  title,
  dataIndex: key,
  align: 'right' as const,
});

/** 机构对账单: per lender its leads, returns, approvals and fundings and what it owes for them. */
export function LenderStatements({ data }: { data: StatementsData }) {
  const rows = data.statements.filter((s) => s.party.type === 'lender');
  const columns: TableColumnsType<Statement> = [
    partyColumn(data.month),
    count('线索', 'leads'),
    count('退回', 'returned'),
    count('授信', 'approved'),
    count('放款', 'funded'),
    ...(data.amountsShown
      ? [
          money('线索收入', 'revenueFen'),
          money('退回冲减', 'returnedFen'),
          money('手工调整', 'adjustmentFen'),
          money('已收款', 'payoutFen'),
          money('应收净额', 'netFen', '本月该机构全部分录之和：收入 − 退回 ± 调整 − 已收款'),
        ]
      : []),
    viewColumn(data.month),
  ];
  return (
    <Table<Statement>
      aria-label="机构对账单"
      rowKey={(s) => `${s.party.type}:${s.party.id}`}
      size="small"
      columns={columns}
      dataSource={rows}
      pagination={rows.length > 20 ? { pageSize: 20 } : false}
      locale={{ emptyText: '本月没有机构分录' }}
      scroll={{ x: 'max-content' }}
    />
  );
}

/** 渠道对账单: per channel its traffic, the leads its people became, its cost and what we owe it. */
export function ChannelStatements({ data }: { data: StatementsData }) {
  const rows = data.statements.filter((s) => s.party.type === 'channel');
  const columns: TableColumnsType<Statement> = [
    partyColumn(data.month),
    count('点击', 'clicks'),
    count('注册', 'registrations'),
    count('线索', 'leads'),
    count('授信', 'approved'),
    count('放款', 'funded'),
    ...(data.amountsShown
      ? [
          money('渠道成本', 'costFen'),
          money('手工调整', 'adjustmentFen'),
          money('已付款', 'payoutFen'),
          money('应付净额', 'netFen', '本月该渠道全部分录之和：成本 ± 调整 − 已付款'),
        ]
      : []),
    viewColumn(data.month),
  ];
  return (
    <Table<Statement>
      aria-label="渠道对账单"
      rowKey={(s) => `${s.party.type}:${s.party.id}`}
      size="small"
      columns={columns}
      dataSource={rows}
      pagination={rows.length > 20 ? { pageSize: 20 } : false}
      locale={{ emptyText: '本月没有渠道分录或流量' }}
      scroll={{ x: 'max-content' }}
    />
  );
}
