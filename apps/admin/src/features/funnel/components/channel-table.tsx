import type { FunnelChannelRow } from '@lm/shared/schemas/funnel';
import { App, Card, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { CsvExportButton } from '@/components/csv-export-button';
import { QueryError } from '@/components/query-error';
import { columnSortOrder, singleSorter, tablePagination } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import {
  type ByChannelPaging,
  type ChannelSort,
  getAllFunnelByChannel,
  useFunnelByChannel,
} from '../api/get-funnel-by-channel';
import type { FunnelFilters } from '../api/types';
import { count, percent } from './format';

const SORTABLE: ChannelSort[] = [
  'adChannelCode',
  'clicks',
  'visits',
  'logins',
  'submits',
  'authorizations',
  'credits',
  'loans',
  'conversion',
];

const CSV_COLUMNS: CsvColumn<FunnelChannelRow>[] = [
  { title: '渠道码', value: (r) => r.adChannelCode },
  { title: '渠道名称', value: (r) => r.name ?? '' },
  { title: '点击', value: (r) => r.clicks },
  { title: '落地页访问', value: (r) => r.visits },
  { title: '登录', value: (r) => r.logins },
  { title: '提交表单', value: (r) => r.submits },
  { title: '授权', value: (r) => r.authorizations },
  { title: '授信', value: (r) => r.credits },
  { title: '放款', value: (r) => r.loans },
  { title: '点击→授权转化率', value: (r) => percent(r.conversion) },
];

/** One row per channel: clicks, landing visits, logins, submits, authorizations, 授信, 放款 and conversion. */
export function ChannelTable({ filters }: { filters: FunnelFilters }) {
  const { message } = App.useApp();
  const [paging, setPaging] = useState<ByChannelPaging>({
    page: 1,
    pageSize: 20,
    sort: 'clicks',
    order: 'desc',
  });
  const rows = useFunnelByChannel(filters, paging);
  const sortOrder = (key: ChannelSort) => columnSortOrder(paging.sort, paging.order, key);
  const num = (key: ChannelSort, title: string, render: (v: number) => string = count) => ({
    title,
    dataIndex: key,
    key,
    align: 'right' as const,
    sorter: true,
    sortOrder: sortOrder(key),
    render: (v: number | null) => (v === null ? '—' : render(v)),
  });
  const columns: TableColumnsType<FunnelChannelRow> = [
    {
      title: '渠道',
      dataIndex: 'adChannelCode',
      key: 'adChannelCode',
      sorter: true,
      sortOrder: sortOrder('adChannelCode'),
      render: (code: string, r) =>
        code === '' ? '无渠道（直接访问）' : r.name ? `${r.name}（${code}）` : `${code}（已删除）`,
    },
    num('clicks', '点击'),
    num('visits', '落地页访问'),
    num('logins', '登录'),
    num('submits', '提交表单'),
    num('authorizations', '授权'),
    num('credits', '授信'),
    num('loans', '放款'),
    num('conversion', '点击→授权转化率', (v) => percent(v)),
  ];

  return (
    <Card
      title="渠道对比"
      size="small"
      extra={
        <CsvExportButton
          size="small"
          load={() => getAllFunnelByChannel(filters, { sort: paging.sort, order: paging.order })}
          columns={CSV_COLUMNS}
          fileName={() => `渠道对比_${filters.from}_${filters.to}`}
          onError={() => void message.error('导出失败，请稍后重试')}
          disabled={!rows.data?.total}
        />
      }
    >
      {rows.isError && (
        <QueryError message="渠道数据加载失败" error={rows.error} style={{ marginBottom: 12 }} />
      )}
      <Table<FunnelChannelRow>
        rowKey="adChannelCode"
        size="small"
        columns={columns}
        dataSource={rows.data?.list ?? []}
        loading={rows.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={tablePagination(paging, rows.data?.total, '个渠道')}
        onChange={(p, _f, sorter) => {
          const s = singleSorter(sorter);
          const key =
            s?.order && SORTABLE.includes(s.columnKey as ChannelSort)
              ? (s.columnKey as ChannelSort)
              : 'clicks';
          const order = s?.order === 'ascend' ? 'asc' : 'desc';
          const sortChanged = key !== paging.sort || order !== paging.order;
          setPaging({
            page: sortChanged ? 1 : (p.current ?? 1),
            pageSize: p.pageSize ?? 20,
            sort: key,
            order,
          });
        }}
      />
      <div style={{ marginTop: 8, color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
        授信、放款：经该渠道授权、之后获机构授信（含已放款）或放款的人数，一人多家机构只算一人，计入授权当天。
      </div>
    </Card>
  );
}
