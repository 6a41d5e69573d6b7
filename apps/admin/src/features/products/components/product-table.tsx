import {
  LINK_TYPE_LABELS,
  PRODUCT_STATUS_LABELS,
  type ProductItem,
  type ProductStatusValue,
} from '@lm/shared/schemas/admin-catalog';
import { formatShanghai } from '@lm/shared/time';
import { Card, Select, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { ListExportButton } from '@/components/csv-export-button';
import { SearchFilter } from '@/components/list-filters';
import { CatalogueTable, idColumn, updatedAtColumn } from '@/components/list-table';
import { listFilters } from '@/components/table-pagination';
import { usePartnerOptions } from '../api/get-partner-options';
import { getProducts, type ProductFilters, useProducts } from '../api/get-products';
import { formatApr, formatYuan, PRODUCT_STATUS_COLORS } from '../format';
import { CapProgress } from './cap-progress';

const formatTime = (iso: string) => formatShanghai(iso, 'second');
const cap = (n: number | null) => (n === null ? '不限' : n);

const CSV_COLUMNS = [
  { title: '编号', value: (r: ProductItem) => r.id },
  { title: '产品编码', value: (r: ProductItem) => r.code },
  { title: '产品名称', value: (r: ProductItem) => r.productName },
  { title: '放款机构', value: (r: ProductItem) => r.partnerName },
  { title: '链接类型', value: (r: ProductItem) => `${r.linkType} ${LINK_TYPE_LABELS[r.linkType] ?? ''}` },
  { title: '额度范围（元）', value: (r: ProductItem) => `${r.amountMinFen / 100}-${r.amountMaxFen / 100}` },
  { title: '期限（月）', value: (r: ProductItem) => `${r.termMinMonths}-${r.termMaxMonths}` },
  { title: '综合年化利率', value: (r: ProductItem) => formatApr(r.aprBps) },
  { title: '单价（元）', value: (r: ProductItem) => r.priceFen / 100 },
  { title: '优先级', value: (r: ProductItem) => r.priority },
  { title: '今日线索', value: (r: ProductItem) => r.todayCount },
  { title: '每日上限', value: (r: ProductItem) => cap(r.dailyCap) },
  { title: '累计线索', value: (r: ProductItem) => r.totalCount },
  { title: '总上限', value: (r: ProductItem) => cap(r.totalCap) },
  { title: '状态', value: (r: ProductItem) => PRODUCT_STATUS_LABELS[r.status] },
  { title: '更新时间', value: (r: ProductItem) => formatTime(r.updatedAt) },
];

export interface ProductTableProps {
  filters: ProductFilters;
  onFiltersChange: (next: ProductFilters) => void;
}

/** Products with today's live counters against their caps, filters, server-side sorting, CSV export. */
export function ProductTable({ filters, onFiltersChange }: ProductTableProps) {
  const query = useProducts(filters);
  const partners = usePartnerOptions();
  const { set, sortOrder } = listFilters(filters, onFiltersChange);

  const columns: TableColumnsType<ProductItem> = [
    idColumn(sortOrder),
    {
      title: '产品',
      dataIndex: 'productName',
      width: 200,
      render: (v: string, r) => (
        <Space direction="vertical" size={0}>
          <Link to={`/products/${r.id}`}>{v}</Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.partnerName}
            {r.partnerStatus === 'suspended' ? '（机构已暂停）' : ''}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: '链接类型',
      dataIndex: 'linkType',
      width: 120,
      render: (v: number) => `${v} ${LINK_TYPE_LABELS[v] ?? ''}`,
    },
    {
      title: '额度 / 期限',
      key: 'range',
      width: 190,
      render: (_, r) =>
        `${formatYuan(r.amountMinFen)}-${formatYuan(r.amountMaxFen)} · ${r.termMinMonths}-${r.termMaxMonths}月`,
    },
    {
      title: '年化利率',
      dataIndex: 'aprBps',
      width: 110,
      sorter: true,
      sortOrder: sortOrder('aprBps'),
      render: (v: number | null) =>
        v !== null && v > 2400 ? (
          <Typography.Text type="danger">{formatApr(v)}</Typography.Text>
        ) : (
          formatApr(v)
        ),
    },
    {
      title: '单价',
      dataIndex: 'priceFen',
      width: 90,
      sorter: true,
      sortOrder: sortOrder('priceFen'),
      render: (v: number) => formatYuan(v),
    },
    { title: '优先级', dataIndex: 'priority', width: 90, sorter: true, sortOrder: sortOrder('priority') },
    {
      title: '今日 / 每日上限',
      key: 'today',
      width: 150,
      render: (_, r) => <CapProgress count={r.todayCount} cap={r.dailyCap} />,
    },
    {
      title: '累计 / 总上限',
      key: 'total',
      width: 150,
      render: (_, r) => <CapProgress count={r.totalCount} cap={r.totalCap} />,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: ProductStatusValue) => (
        <Tag color={PRODUCT_STATUS_COLORS[s]}>{PRODUCT_STATUS_LABELS[s]}</Tag>
      ),
    },
    updatedAtColumn(sortOrder),
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <SearchFilter
          placeholder="产品名称或编码"
          value={filters.q}
          onSearch={(q) => set({ q })}
          style={{ width: 220 }}
        />
        <Select
          placeholder="全部机构"
          allowClear
          showSearch
          optionFilterProp="label"
          value={filters.partnerId}
          onChange={(v) => set({ partnerId: v })}
          options={(partners.data ?? []).map((p) => ({ value: p.id, label: p.legalName }))}
          style={{ width: 220 }}
        />
        <Select
          placeholder="全部状态"
          allowClear
          value={filters.status}
          onChange={(v) => set({ status: v })}
          options={Object.entries(PRODUCT_STATUS_LABELS).map(([value, label]) => ({ value, label }))}
          style={{ width: 120 }}
        />
        <Select
          placeholder="全部链接类型"
          allowClear
          value={filters.linkType}
          onChange={(v) => set({ linkType: v })}
          options={Object.entries(LINK_TYPE_LABELS).map(([value, label]) => ({
            value: Number(value),
            label: `${value} ${label}`,
          }))}
          style={{ width: 160 }}
        />
        <ListExportButton
          fetchPage={getProducts}
          filters={filters}
          columns={CSV_COLUMNS}
          name="产品"
          total={query.data?.total}
        />
      </Space>
      <CatalogueTable
        query={query}
        errorMessage="产品加载失败"
        columns={columns}
        locale={{ emptyText: '没有符合条件的产品' }}
        scroll={{ x: 1500 }}
        filters={filters}
        onFiltersChange={onFiltersChange}
        unit="个产品"
      />
    </Card>
  );
}
