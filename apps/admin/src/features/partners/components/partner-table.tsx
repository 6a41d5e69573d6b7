import { PARTNER_STATUS_LABELS, type PartnerItem } from '@lm/shared/schemas/admin-catalog';
import { formatShanghai } from '@lm/shared/time';
import { Card, Select, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { ListExportButton } from '@/components/csv-export-button';
import { SearchFilter } from '@/components/list-filters';
import { CatalogueTable, idColumn, updatedAtColumn } from '@/components/list-table';
import { listFilters } from '@/components/table-pagination';
import { getPartners, type PartnerFilters, usePartners } from '../api/get-partners';

const formatTime = (iso: string | null) => formatShanghai(iso, 'second');

const CSV_COLUMNS = [
  { title: '编号', value: (r: PartnerItem) => r.id },
  { title: '机构编码', value: (r: PartnerItem) => r.code },
  { title: '法定名称', value: (r: PartnerItem) => r.legalName },
  { title: '许可证/备案号', value: (r: PartnerItem) => r.licenceNumber },
  { title: '联系人', value: (r: PartnerItem) => r.contactName },
  { title: '联系电话', value: (r: PartnerItem) => r.contactPhoneMasked },
  { title: '允许域名', value: (r: PartnerItem) => r.allowedHosts.join(' ') },
  { title: '产品数', value: (r: PartnerItem) => r.productCount },
  { title: '状态', value: (r: PartnerItem) => PARTNER_STATUS_LABELS[r.status] },
  { title: '密钥轮换时间', value: (r: PartnerItem) => formatTime(r.secretRotatedAt) },
  { title: '更新时间', value: (r: PartnerItem) => formatTime(r.updatedAt) },
];

export interface PartnerTableProps {
  filters: PartnerFilters;
  onFiltersChange: (next: PartnerFilters) => void;
}

/** Partners with search, status filter, server-side sorting and paging, and CSV export. */
export function PartnerTable({ filters, onFiltersChange }: PartnerTableProps) {
  const query = usePartners(filters);
  const { set, sortOrder } = listFilters(filters, onFiltersChange);

  const columns: TableColumnsType<PartnerItem> = [
    idColumn(sortOrder),
    {
      title: '法定名称',
      dataIndex: 'legalName',
      sorter: true,
      sortOrder: sortOrder('legalName'),
      render: (v: string, r) => (
        <Space direction="vertical" size={0}>
          <Link to={`/partners/${r.id}`}>{v}</Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.code}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '许可证/备案号', dataIndex: 'licenceNumber', width: 220 },
    {
      title: '联系人',
      key: 'contact',
      width: 150,
      render: (_, r) => `${r.contactName} ${r.contactPhoneMasked}`,
    },
    {
      title: '允许域名',
      dataIndex: 'allowedHosts',
      width: 200,
      render: (hosts: string[]) =>
        hosts.length ? (
          hosts.map((h) => <Tag key={h}>{h}</Tag>)
        ) : (
          <Typography.Text type="secondary">未配置</Typography.Text>
        ),
    },
    {
      title: '产品数',
      dataIndex: 'productCount',
      width: 80,
      render: (n: number, r) => <Link to={`/products?partnerId=${r.id}`}>{n}</Link>,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: PartnerItem['status']) => (
        <Tag color={s === 'active' ? 'green' : 'default'}>{PARTNER_STATUS_LABELS[s]}</Tag>
      ),
    },
    {
      title: '签名密钥',
      key: 'secret',
      width: 170,
      render: (_, r) =>
        !r.hasSecret ? (
          <Tag color="orange">未配置</Tag>
        ) : r.previousSecretValidUntil ? (
          <Typography.Text type="warning" style={{ fontSize: 12 }}>
            已轮换，旧密钥有效至 {formatTime(r.previousSecretValidUntil)}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.secretRotatedAt ? `上次轮换 ${formatTime(r.secretRotatedAt)}` : '已配置'}
          </Typography.Text>
        ),
    },
    updatedAtColumn(sortOrder),
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <SearchFilter
          placeholder="机构名称、编码或许可证号"
          value={filters.q}
          onSearch={(q) => set({ q })}
          style={{ width: 260 }}
        />
        <Select
          placeholder="全部状态"
          allowClear
          value={filters.status}
          onChange={(v) => set({ status: v })}
          options={[
            { value: 'active', label: '合作中' },
            { value: 'suspended', label: '已暂停' },
          ]}
          style={{ width: 120 }}
        />
        <ListExportButton
          fetchPage={getPartners}
          filters={filters}
          columns={CSV_COLUMNS}
          name="合作机构"
          total={query.data?.total}
        />
      </Space>
      <CatalogueTable
        query={query}
        errorMessage="合作机构加载失败"
        columns={columns}
        locale={{ emptyText: '没有符合条件的合作机构' }}
        scroll={{ x: 1200 }}
        filters={filters}
        onFiltersChange={onFiltersChange}
        unit="家"
      />
    </Card>
  );
}
