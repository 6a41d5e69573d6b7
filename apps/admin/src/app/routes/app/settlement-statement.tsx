import { MONTH_PATTERN, PARTY_TYPES, type PartyType } from '@lm/shared/ledger';
import { Button, Result, Skeleton, Space } from 'antd';
import { Link, useParams } from 'react-router';
import { QueryErrorResult } from '@/components/query-error';
import { useStatement } from '@/features/settlement/api/get-statement';
import { StatementSheet } from '@/features/settlement/components/statement-print';

/** 对账单 (printable): one lender's or channel's statement of a month, with a 打印 button. */
export function SettlementStatementRoute() {
  const params = useParams();
  const month = params.month ?? '';
  const type = params.partyType as PartyType;
  const code = params.code ?? '';
  const valid = MONTH_PATTERN.test(month) && (PARTY_TYPES as readonly string[]).includes(type) && code !== '';
  if (!valid)
    return <Result status="404" title="对账单地址有误" extra={<Link to="/settlement">返回结算对账</Link>} />;
  return <Sheet month={month} type={type} code={code} />;
}

function Sheet({ month, type, code }: { month: string; type: PartyType; code: string }) {
  const statement = useStatement(type, code, month);
  return (
    <>
      <Space className="no-print" style={{ marginBottom: 16 }}>
        <Link to={`/settlement?month=${month}`}>← 返回结算对账</Link>
        <Button type="primary" onClick={() => window.print()} disabled={!statement.data}>
          打印
        </Button>
      </Space>
      {statement.isLoading && <Skeleton active paragraph={{ rows: 8 }} />}
      {statement.isError && (
        <QueryErrorResult
          title="对账单加载失败"
          error={statement.error}
          onRetry={() => statement.refetch()}
        />
      )}
      {statement.data && <StatementSheet data={statement.data} />}
    </>
  );
}
