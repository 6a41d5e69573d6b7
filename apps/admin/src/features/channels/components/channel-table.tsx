import { LINK_TYPE_LABELS, THEMES, type ThemeName } from '@lm/shared/channel';
import { type ChannelListItem, channelFlagText, LINK_TYPE_OPTIONS } from '@lm/shared/schemas/admin-channels';
import { formatShanghai } from '@lm/shared/time';
import { Card, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { ListExportButton } from '@/components/csv-export-button';
import { SearchFilter, SelectFilter } from '@/components/list-filters';
import { idColumn, RefreshButton, updatedAtColumn } from '@/components/list-table';
import { QueryError } from '@/components/query-error';
import { listFilters, nextPaging, singleSorter, tablePagination } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { type ChannelFilters, getChannels, useChannels } from '../api/get-channels';
import { armShares } from '../form';
import { ColourDot } from './colour-dot';
import { StatusSwitch } from './status-switch';

const STATUS_OPTIONS = [
  { value: 1, label: '启用' },
  { value: 0, label: '停用' },
];

const formatTime = (iso: string) => formatShanghai(iso, 'second');

const themeName = (t: string) => THEMES[t as ThemeName]?.name ?? t;

function skinText(r: ChannelListItem): string {
  if (!r.skinArms) return `skin${r.skin}`;
  const shares = armShares(r.skinArms);
  return r.skinArms.map((a, i) => `skin${a.skin} ${shares[i]}%`).join(' / ');
}

const CSV_COLUMNS: CsvColumn<ChannelListItem>[] = [
  { title: '编号', value: (r) => r.id },
  { title: '渠道码', value: (r) => r.adChannelCode },
  { title: '名称', value: (r) => r.name },
  { title: '状态', value: (r) => (r.channelStatus === 1 ? '启用' : '停用') },
  { title: '链接类型', value: (r) => `${r.linkType} ${LINK_TYPE_LABELS[r.linkType] ?? ''}` },
  { title: '皮肤', value: skinText },
  { title: '主题色', value: (r) => themeName(r.theme) },
  { title: '功能标记', value: (r) => r.flags.map(channelFlagText).join('、') },
  { title: '路由码数', value: (r) => r.routeCodeCount },
  { title: '今日点击', value: (r) => r.todayClicks },
  { title: '更新时间', value: (r) => formatTime(r.updatedAt) },
];

export interface ChannelTableProps {
  filters: ChannelFilters;
  onFiltersChange: (next: ChannelFilters) => void;
  canEdit: boolean;
}

/** Channels with status switch, filters, server-side sorting and paging, and CSV export. */
export function ChannelTable({ filters, onFiltersChange, canEdit }: ChannelTableProps) {
  const query = useChannels(filters);
  const { set, sortOrder } = listFilters(filters, onFiltersChange);

  const columns: TableColumnsType<ChannelListItem> = [
    idColumn(sortOrder),
    {
      title: '渠道码',
      dataIndex: 'adChannelCode',
      width: 170,
      sorter: true,
      sortOrder: sortOrder('adChannelCode'),
      render: (v: string, r) => <Link to={`/channels/${r.id}`}>{v}</Link>,
    },
    { title: '名称', dataIndex: 'name', width: 160, sorter: true, sortOrder: sortOrder('name') },
    {
      title: '链接类型',
      dataIndex: 'linkType',
      width: 130,
      render: (v: number) => `${v} ${LINK_TYPE_LABELS[v] ?? ''}`,
    },
    {
      title: '皮肤',
      key: 'skin',
      width: 190,
      render: (_, r) =>
        r.skinArms ? (
          <Tooltip title="A/B 分流：访客按设备指纹固定分到一个皮肤">
            <Tag color="geekblue">A/B</Tag>
            {skinText(r)}
          </Tooltip>
        ) : (
          skinText(r)
        ),
    },
    {
      title: '主题色',
      dataIndex: 'theme',
      width: 90,
      render: (t: string) => (
        <Space size={4}>
          <ColourDot colour={THEMES[t as ThemeName]?.primary ?? '#ccc'} />
          {themeName(t)}
        </Space>
      ),
    },
    {
      title: '功能标记',
      dataIndex: 'flags',
      width: 200,
      render: (flags: string[]) =>
        flags.length ? (
          flags.map((f) => <Tag key={f}>{channelFlagText(f)}</Tag>)
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { title: '路由码', dataIndex: 'routeCodeCount', width: 80 },
    {
      title: <Tooltip title="今日（北京时间）按设备去重的点击数">今日点击</Tooltip>,
      dataIndex: 'todayClicks',
      width: 100,
    },
    updatedAtColumn(sortOrder),
    {
      title: '状态',
      key: 'status',
      width: 100,
      fixed: 'right',
      render: (_, r) => <StatusSwitch item={r} canEdit={canEdit} />,
    },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_, r) => <Link to={`/channels/${r.id}`}>{canEdit ? '编辑' : '查看'}</Link>,
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <SearchFilter
          aria-label="搜索渠道"
          placeholder="渠道码或名称"
          style={{ width: 220 }}
          value={filters.q}
          onSearch={(q) => set({ q })}
        />
        <SelectFilter
          label="状态"
          width={120}
          placeholder="全部状态"
          value={filters.status}
          options={STATUS_OPTIONS}
          onChange={(status?: 0 | 1) => set({ status })}
        />
        <SelectFilter
          label="链接类型"
          width={180}
          placeholder="全部链接类型"
          value={filters.linkType}
          options={LINK_TYPE_OPTIONS}
          onChange={(linkType?: number) => set({ linkType })}
        />
        <RefreshButton query={query} />
        {/* Every page of the current filters, not just the one shown. */}
        <ListExportButton
          fetchPage={getChannels}
          filters={filters}
          columns={CSV_COLUMNS}
          name="渠道列表"
          total={query.data?.total}
        />
      </Space>
      {query.isError && !query.data ? (
        <QueryError message="渠道列表加载失败" error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Table<ChannelListItem>
          rowKey="id"
          size="middle"
          loading={query.isLoading}
          columns={columns}
          dataSource={query.data?.list ?? []}
          scroll={{ x: 1500 }}
          locale={{
            emptyText:
              filters.q || filters.status !== undefined || filters.linkType
                ? '没有符合条件的渠道'
                : '还没有渠道，点击右上角“新建渠道”',
          }}
          pagination={tablePagination(filters, query.data?.total, '个渠道')}
          onChange={(p, _f, sorter) => {
            const s = singleSorter(sorter);
            const field = s?.order ? (s.field as ChannelFilters['sort']) : undefined;
            onFiltersChange({
              ...filters,
              ...nextPaging(filters, p.current, p.pageSize),
              sort: field,
              order: field ? (s?.order === 'ascend' ? 'asc' : 'desc') : undefined,
            });
          }}
        />
      )}
    </Card>
  );
}
