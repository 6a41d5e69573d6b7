import type { AdminLeadItem, AdminLeadStatus } from '@lm/shared/schemas/admin-leads';
import { Button, Card, Input, InputNumber, Select, Space, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListExportButton } from '@/components/csv-export-button';
import { DateRangeFilter } from '@/components/date-range-filter';
import { ListTable, lastErrorColumn, RefreshButton } from '@/components/list-table';
import {
  columnSortOrder,
  listFilters,
  singleSorter,
  sortedPaging,
  tablePagination,
} from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { getLeads, type LeadFilters, useLeads } from '../api/get-leads';
import { formatShanghai, LEAD_MODE_TEXT, LEAD_STATUS_COLOR, LEAD_STATUS_TEXT } from '../format';

const STATUS_OPTIONS = (Object.keys(LEAD_STATUS_TEXT) as AdminLeadStatus[]).map((s) => ({
  value: s,
  label: LEAD_STATUS_TEXT[s],
}));

const sortOrder = (f: LeadFilters, key: string) => columnSortOrder(f.sort ?? 'createdAt', f.order, key);

const CSV_COLUMNS: CsvColumn<AdminLeadItem>[] = [
  { title: '线索ID', value: (r) => r.id },
  { title: '用户ID', value: (r) => r.userId },
  { title: '手机号（脱敏）', value: (r) => r.phoneMasked },
  { title: '渠道', value: (r) => r.channelCode },
  { title: '机构', value: (r) => r.partnerName },
  { title: '产品', value: (r) => r.productName },
  { title: '发送方式', value: (r) => LEAD_MODE_TEXT[r.mode] ?? r.mode },
  { title: '状态', value: (r) => LEAD_STATUS_TEXT[r.status] },
  { title: '发送次数', value: (r) => r.attempts },
  { title: '最近错误', value: (r) => r.lastError },
  { title: '机构编号', value: (r) => r.partnerRef },
  { title: '创建时间', value: (r) => formatShanghai(r.createdAt) },
  { title: '送达时间', value: (r) => formatShanghai(r.deliveredAt) },
];

export interface LeadTableProps {
  filters: LeadFilters;
  onFiltersChange: (next: LeadFilters) => void;
  onOpen: (leadId: number) => void;
}

/** Leads: by partner, product, status, channel, dates; masked; opens a lead's attempts. */
export function LeadTable({ filters, onFiltersChange, onOpen }: LeadTableProps) {
  const query = useLeads(filters);
  const [channel, setChannel] = useState(filters.channelCode ?? '');
  const { set } = listFilters(filters, onFiltersChange);

  const columns: TableColumnsType<AdminLeadItem> = [
    {
      title: '线索ID',
      dataIndex: 'id',
      width: 80,
      render: (id: number) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(id)}>
          {id}
        </Button>
      ),
    },
    {
      title: '用户',
      key: 'user',
      width: 130,
      render: (_, r) => <Link to={`/leads/${r.userId}`}>{r.phoneMasked}</Link>,
    },
    { title: '渠道', dataIndex: 'channelCode', width: 100, render: (v: string | null) => v ?? '—' },
    { title: '机构', dataIndex: 'partnerName', width: 180, ellipsis: true },
    { title: '产品', dataIndex: 'productName', width: 140, ellipsis: true },
    {
      title: '状态',
      dataIndex: 'status',
      width: 120,
      render: (v: AdminLeadStatus) => <Tag color={LEAD_STATUS_COLOR[v]}>{LEAD_STATUS_TEXT[v]}</Tag>,
    },
    {
      title: '次数',
      dataIndex: 'attempts',
      key: 'attempts',
      width: 80,
      sorter: true,
      sortOrder: sortOrder(filters, 'attempts'),
    },
    {
      title: '下次发送',
      dataIndex: 'nextAttemptAt',
      key: 'nextAttemptAt',
      width: 150,
      sorter: true,
      sortOrder: sortOrder(filters, 'nextAttemptAt'),
      render: (v: string, r) => (r.status === 'pending' ? formatShanghai(v) : '—'),
    },
    lastErrorColumn(180),
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 150,
      sorter: true,
      sortOrder: sortOrder(filters, 'createdAt'),
      render: (v: string) => formatShanghai(v),
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="线索状态"
          allowClear
          placeholder="全部状态"
          style={{ width: 150 }}
          value={filters.status}
          options={STATUS_OPTIONS}
          onChange={(status?: AdminLeadStatus) => set({ status })}
        />
        <InputNumber
          aria-label="机构编号"
          placeholder="机构编号"
          min={1}
          style={{ width: 120 }}
          value={filters.partnerId ?? null}
          onChange={(v) => set({ partnerId: v ?? undefined })}
        />
        <InputNumber
          aria-label="产品编号"
          placeholder="产品编号"
          min={1}
          style={{ width: 120 }}
          value={filters.productId ?? null}
          onChange={(v) => set({ productId: v ?? undefined })}
        />
        <Input.Search
          aria-label="渠道码"
          placeholder="渠道码"
          allowClear
          style={{ width: 160 }}
          value={channel}
          onChange={(e) => setChannel(e.target.value)}
          onSearch={(v) => set({ channelCode: v.trim() || undefined })}
        />
        <DateRangeFilter label="创建日期" from={filters.from} to={filters.to} onChange={set} />
        <RefreshButton query={query} />
        <ListExportButton
          fetchPage={getLeads}
          filters={filters}
          columns={CSV_COLUMNS}
          name="线索"
          total={query.data?.total}
          notifyCount
        />
      </Space>
      <ListTable<AdminLeadItem>
        query={query}
        errorMessage="线索列表加载失败"
        columns={columns}
        scroll={{ x: 1300 }}
        locale={{ emptyText: '暂无符合条件的线索' }}
        onChange={(pagination, _f, sorter) =>
          onFiltersChange({
            ...filters,
            ...sortedPaging(filters, pagination, singleSorter(sorter), 'createdAt'),
          })
        }
        pagination={tablePagination(filters, query.data?.total, '条')}
      />
    </Card>
  );
}
