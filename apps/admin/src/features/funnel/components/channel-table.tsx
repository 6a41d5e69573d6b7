import type { FunnelChannelRow } from '@lm/shared/schemas/funnel';
import { Alert, App, Button, Card, Table, type TableColumnsType } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import { useState } from 'react';
import { downloadCsv, toCsv } from '@/lib/csv';
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
  'conversion',
];

/** One row per channel: clicks, landing visits, logins, submits, authorizations and conversion. */
export function ChannelTable({ filters }: { filters: FunnelFilters }) {
  const { message } = App.useApp();
  const [paging, setPaging] = useState<ByChannelPaging>({
    page: 1,
    pageSize: 20,
    sort: 'clicks',
    order: 'desc',
  });
  const [exporting, setExporting] = useState(false);
  const rows = useFunnelByChannel(filters, paging);
  const sortOrder = (key: ChannelSort): SortOrder =>
    paging.sort === key ? (paging.order === 'asc' ? 'ascend' : 'descend') : null;
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
    num('conversion', '点击→授权转化率', (v) => percent(v)),
  ];

  const onExport = async () => {
    setExporting(true);
    try {
      const all = await getAllFunnelByChannel(filters, { sort: paging.sort, order: paging.order });
      const csv = toCsv(all, [
        { title: '渠道码', value: (r) => r.adChannelCode },
        { title: '渠道名称', value: (r) => r.name ?? '' },
        { title: '点击', value: (r) => r.clicks },
        { title: '落地页访问', value: (r) => r.visits },
        { title: '登录', value: (r) => r.logins },
        { title: '提交表单', value: (r) => r.submits },
        { title: '授权', value: (r) => r.authorizations },
        { title: '点击→授权转化率', value: (r) => percent(r.conversion) },
      ]);
      downloadCsv(`渠道对比_${filters.from}_${filters.to}`, csv);
    } catch {
      void message.error('导出失败，请稍后重试');
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title="渠道对比"
      size="small"
      extra={
        <Button size="small" loading={exporting} disabled={!rows.data?.total} onClick={onExport}>
          导出 CSV
        </Button>
      }
    >
      {rows.isError && (
        <Alert
          type="error"
          showIcon
          message="渠道数据加载失败"
          description={rows.error.message}
          style={{ marginBottom: 12 }}
        />
      )}
      <Table<FunnelChannelRow>
        rowKey="adChannelCode"
        size="small"
        columns={columns}
        dataSource={rows.data?.list ?? []}
        loading={rows.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: paging.page,
          pageSize: paging.pageSize,
          total: rows.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [20, 50, 100],
          showTotal: (t) => `共 ${t} 个渠道`,
        }}
        onChange={(p, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
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
    </Card>
  );
}
