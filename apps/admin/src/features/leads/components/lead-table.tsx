import type { AdminLeadItem, AdminLeadStatus } from '@lm/shared/schemas/admin-leads';
import { Button, InputNumber, type TableColumnsType, Tag } from 'antd';
import { Link } from 'react-router';
import { SelectFilter } from '@/components/list-filters';
import { lastErrorColumn } from '@/components/list-table';
import { listFilters } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { getLeads, type LeadFilters, useLeads } from '../api/get-leads';
import {
  formatShanghai,
  LEAD_MODE_TEXT,
  LEAD_OUTCOME_COLOR,
  LEAD_STATUS_COLOR,
  LEAD_STATUS_TEXT,
  outcomeText,
} from '../format';
import { ChannelCodeFilter, PeopleList } from './people-list';
import { sortedColumn, sortedTimeColumn } from './sorted-column';

const STATUS_OPTIONS = (Object.keys(LEAD_STATUS_TEXT) as AdminLeadStatus[]).map((s) => ({
  value: s,
  label: LEAD_STATUS_TEXT[s],
}));

const CSV_COLUMNS: CsvColumn<AdminLeadItem>[] = [
  { title: '线索ID', value: (r) => r.id },
  { title: '用户ID', value: (r) => r.userId },
  { title: '手机号（脱敏）', value: (r) => r.phoneMasked },
  { title: '渠道', value: (r) => r.channelCode },
  { title: '机构', value: (r) => r.partnerName },
  { title: '产品', value: (r) => r.productName },
  { title: '发送方式', value: (r) => LEAD_MODE_TEXT[r.mode] ?? r.mode },
  { title: '状态', value: (r) => LEAD_STATUS_TEXT[r.status] },
  { title: '机构反馈', value: (r) => outcomeText(r.outcome) },
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
      title: '机构反馈',
      dataIndex: 'outcome',
      width: 150,
      render: (v: AdminLeadItem['outcome'], r) =>
        // Before delivery the lender has nothing to report on.
        v === null && r.deliveredAt === null ? (
          '—'
        ) : (
          <Tag color={LEAD_OUTCOME_COLOR[v ?? 'pending']}>{outcomeText(v)}</Tag>
        ),
    },
    sortedColumn(filters, { title: '次数', dataIndex: 'attempts', width: 80 }),
    sortedColumn(filters, {
      title: '下次发送',
      dataIndex: 'nextAttemptAt',
      width: 150,
      render: (v: string, r) => (r.status === 'pending' ? formatShanghai(v) : '—'),
    }),
    lastErrorColumn(180),
    sortedTimeColumn(filters, '创建时间', 'createdAt'),
  ];

  return (
    <PeopleList
      list={{ query, filters, onFiltersChange }}
      noun="线索"
      unit="条"
      fetchPage={getLeads}
      dateLabel="创建日期"
      columns={columns}
      csvColumns={CSV_COLUMNS}
      width={1450}
    >
      <SelectFilter
        label="线索状态"
        placeholder="全部状态"
        width={150}
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
      <ChannelCodeFilter value={filters.channelCode} onSearch={(channelCode) => set({ channelCode })} />
    </PeopleList>
  );
}
