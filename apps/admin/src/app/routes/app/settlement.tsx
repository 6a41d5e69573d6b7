import { MONTH_PATTERN, STATEMENT_STATUS_LABELS } from '@lm/shared/ledger';
import { shanghaiMonthOf } from '@lm/shared/money';
import { formatShanghai } from '@lm/shared/time';
import { Alert, Button, Card, DatePicker, Skeleton, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryErrorResult } from '@/components/query-error';
import { useMe } from '@/features/auth/api/get-me';
import { downloadStatementsCsv } from '@/features/settlement/api/download-statements-csv';
import { useStatements } from '@/features/settlement/api/get-statements';
import { CloseMonthButton } from '@/features/settlement/components/close-month-button';
import { EntryModal, type EntryModalKind } from '@/features/settlement/components/entry-modal';
import { ChannelStatements, LenderStatements } from '@/features/settlement/components/statement-tables';
import { ApiError } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';

/** The month before the current Shanghai month: the one a finance team settles (and closes) first. */
function lastMonth(): string {
  return dayjs(`${shanghaiMonthOf()}-01`).subtract(1, 'month').format('YYYY-MM');
}

/**
 * 结算对账 (issue 48.5): the statements of a Shanghai month per lender and per channel, from the ledger; CSV
 * export, printable statements; an admin closes a month that has ended and books adjustments and payouts.
 */
export function SettlementRoute() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('month');
  const month = asked && MONTH_PATTERN.test(asked) ? asked : lastMonth();
  const me = useMe();
  const role = me.data?.role;
  const isAdmin = role === 'admin';
  const statements = useStatements(month);
  const data = statements.data;
  const [modal, setModal] = useState<EntryModalKind | null>(null);
  const [exporting, setExporting] = useState(false);

  const exportCsv = () => {
    setExporting(true);
    downloadStatementsCsv(month)
      .catch((e: unknown) => notifyError(e instanceof ApiError ? e.msg : '导出失败，请稍后再试'))
      .finally(() => setExporting(false));
  };

  return (
    <>
      <PageHeader
        title="结算对账"
        extra={
          <Space wrap>
            <DatePicker
              picker="month"
              allowClear={false}
              aria-label="账期月份"
              value={dayjs(`${month}-01`)}
              disabledDate={(d) => d.format('YYYY-MM') > shanghaiMonthOf()}
              onChange={(d) => d && setParams({ month: d.format('YYYY-MM') })}
            />
            {data && (
              <Tag color={data.status === 'closed' ? 'green' : 'blue'}>
                {STATEMENT_STATUS_LABELS[data.status]}
              </Tag>
            )}
            <Button onClick={exportCsv} loading={exporting}>
              导出 CSV
            </Button>
            {isAdmin && data?.closable && <CloseMonthButton month={month} />}
            {isAdmin && data && (
              <>
                <Button onClick={() => setModal('adjustment')}>手工调整</Button>
                <Button onClick={() => setModal('payout')}>登记付款</Button>
              </>
            )}
          </Space>
        }
      >
        {role === 'channel_partner'
          ? '每月按北京时间统计：您的渠道带来的点击、注册、线索，以及我们应付给渠道的成本（成本 ± 调整 − 已付款）。关账后该月冻结。'
          : '每月按北京时间统计台账分录：机构对账单为机构应付给我们的线索费用（收入 − 退回 ± 调整 − 已收款），渠道对账单为我们应付给渠道的成本（成本 ± 调整 − 已付款）。关账后该月冻结，之后到达的该月事件记入下一个未关账的月份。'}
      </PageHeader>
      {statements.isLoading && <Skeleton active paragraph={{ rows: 6 }} />}
      {statements.isError && (
        <QueryErrorResult
          title="对账单加载失败"
          error={statements.error}
          onRetry={() => statements.refetch()}
        />
      )}
      {data && (
        <>
          {data.status === 'closed' && (
            <Alert
              type="success"
              showIcon
              style={{ marginBottom: 16 }}
              message={`${month} 已关账（${[data.closedByName, data.closedAt && formatShanghai(data.closedAt)].filter(Boolean).join(' ')}），对账单不再变化`}
            />
          )}
          {!data.amountsShown && (
            <Alert type="info" showIcon style={{ marginBottom: 16 }} message="只读账号不显示金额" />
          )}
          {role !== 'channel_partner' && (
            <Card title="机构对账单" size="small" style={{ marginBottom: 16 }}>
              <LenderStatements data={data} />
            </Card>
          )}
          <Card title="渠道对账单" size="small">
            {role === 'channel_partner' && (
              <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                仅显示您账号绑定的渠道。
              </Typography.Paragraph>
            )}
            <ChannelStatements data={data} />
          </Card>
          {isAdmin && <EntryModal kind={modal} data={data} onClose={() => setModal(null)} />}
        </>
      )}
    </>
  );
}
