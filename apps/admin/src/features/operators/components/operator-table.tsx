import type { OperatorItem } from '@lm/shared/schemas/operators';
import { Card, Space, type TableColumnsType, Typography } from 'antd';
import { Link } from 'react-router';
import { SearchFilter } from '@/components/list-filters';
import { CatalogueTable, idColumn, updatedAtColumn } from '@/components/list-table';
import { listFilters } from '@/components/table-pagination';
import { type OperatorFilters, useOperators } from '../api/get-operators';

export interface OperatorTableProps {
  filters: OperatorFilters;
  onFiltersChange: (next: OperatorFilters) => void;
}

/** Operators with search, server-side sorting and paging. */
export function OperatorTable({ filters, onFiltersChange }: OperatorTableProps) {
  const query = useOperators(filters);
  const { set, sortOrder } = listFilters(filters, onFiltersChange);

  const columns: TableColumnsType<OperatorItem> = [
    idColumn(sortOrder),
    {
      title: '公司全称',
      dataIndex: 'companyName',
      sorter: true,
      sortOrder: sortOrder('companyName'),
      render: (v: string, r) => (
        <Space direction="vertical" size={0}>
          <Link to={`/operators/${r.id}`}>{v}</Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.code} · 简称 {r.shortName}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '备案号', dataIndex: 'filingNumber', width: 190 },
    { title: '短信签名', dataIndex: 'smsSignature', width: 120, render: (v: string) => `【${v}】` },
    { title: '客服电话', dataIndex: 'servicePhone', width: 130 },
    { title: '渠道数', dataIndex: 'channelCount', width: 80 },
    updatedAtColumn(sortOrder),
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <SearchFilter
          placeholder="公司名称、简称或编码"
          value={filters.q}
          onSearch={(q) => set({ q })}
          style={{ width: 260 }}
        />
      </Space>
      <CatalogueTable
        query={query}
        errorMessage="运营主体加载失败"
        columns={columns}
        locale={{ emptyText: '没有符合条件的运营主体' }}
        scroll={{ x: 1000 }}
        filters={filters}
        onFiltersChange={onFiltersChange}
        unit="家"
      />
    </Card>
  );
}
