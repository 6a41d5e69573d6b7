import {
  ROUTE_CODE_MISS_STATE_LABELS,
  type RouteCodeMissItem,
  type RouteCodeMissState,
} from '@lm/shared/schemas/admin-channels';
import { formatShanghai } from '@lm/shared/time';
import { Card, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListTable, RefreshButton } from '@/components/list-table';
import { nextPaging, tablePagination } from '@/components/table-pagination';
import { type RouteCodeMissFilters, useRouteCodeMisses } from '../api/get-route-code-misses';

const STATE_COLOR: Record<RouteCodeMissState, string> = {
  disabled: 'orange',
  enabled: 'default',
  missing: 'red',
};

const formatTime = (iso: string) => formatShanghai(iso, 'second');

/**
 * 失效路由码访问 (issue 44.19): route codes that ad links still carry although they do not exchange —
 * disabled, deleted or never created — with how often and when visitors asked for them. The visitor
 * lands on the default landing page; the operator fixes the link or turns the code on again.
 */
export function DeadRouteCodes() {
  const [paging, setPaging] = useState<RouteCodeMissFilters>({ page: 1, pageSize: 10 });
  const query = useRouteCodeMisses(paging);

  const columns: TableColumnsType<RouteCodeMissItem> = [
    { title: '路由码', dataIndex: 'routeCode', width: 200 },
    {
      title: '现状',
      dataIndex: 'state',
      width: 190,
      render: (s: RouteCodeMissState) => <Tag color={STATE_COLOR[s]}>{ROUTE_CODE_MISS_STATE_LABELS[s]}</Tag>,
    },
    {
      title: '所属渠道',
      key: 'channel',
      width: 220,
      render: (_, r) =>
        r.channelId === null ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Link to={`/channels/${r.channelId}`}>
            {r.channelName}（{r.adChannelCode}）
          </Link>
        ),
    },
    { title: '失效访问', dataIndex: 'hits', width: 100, render: (n: number) => `${n} 次` },
    { title: '最近一次', dataIndex: 'lastSeenAt', width: 170, render: formatTime },
    { title: '首次', dataIndex: 'firstSeenAt', width: 170, render: formatTime },
  ];

  return (
    <Card
      title="失效路由码访问"
      size="small"
      style={{ marginTop: 16 }}
      extra={<RefreshButton query={query} />}
      data-testid="dead-route-codes"
    >
      <Space direction="vertical" size={8} style={{ width: '100%' }}>
        <Typography.Text type="secondary">
          广告链接里的路由码已停用、已删除或从未创建时，访客看到默认落地页（仍可正常申请），不会进入该渠道。这里按路由码统计这类访问（不记录访客信息），请修正广告链接或重新启用路由码。
        </Typography.Text>
        <ListTable<RouteCodeMissItem>
          rowKey="routeCode"
          size="small"
          query={query}
          errorMessage="失效路由码访问加载失败"
          columns={columns}
          scroll={{ x: 1050 }}
          locale={{ emptyText: '没有失效的路由码访问' }}
          pagination={tablePagination(paging, query.data?.total, '个路由码')}
          onChange={(p) => setPaging(nextPaging(paging, p.current, p.pageSize))}
        />
      </Space>
    </Card>
  );
}
