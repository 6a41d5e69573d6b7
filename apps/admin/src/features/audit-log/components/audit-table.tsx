import type { AuditEntry } from '@lm/shared/schemas/admin';
import { formatShanghai } from '@lm/shared/time';
import { Card, Select, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { ListExportButton } from '@/components/csv-export-button';
import { DateRangeFilter } from '@/components/date-range-filter';
import { SearchFilter } from '@/components/list-filters';
import { ListTable, RefreshButton } from '@/components/list-table';
import { listFilters, singleSorter, tablePagination } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { useAuditFacets } from '../api/get-audit-facets';
import { type AuditFilters, getAuditLog, useAuditLog } from '../api/get-audit-log';
import { diffEntries, diffSummary, snapshotText } from '../diff';
import { ACTION_COLOR, actionText, entityText, revealFieldText, staffText } from '../format';

/** One line of what the entry did: the field revealed, or the changed fields, in words. */
function changeText(e: AuditEntry): string {
  const field = e.after?.field;
  if (e.action === 'reveal' && typeof field === 'string') return `查看字段：${revealFieldText(field)}`;
  return diffSummary(e.entity, e.before, e.after);
}

/** Where an entry's subject lives in the console, when it has a page. */
function subjectLink(e: AuditEntry): string | null {
  if (!e.entityId) return null;
  if (e.entity === 'user') return `/leads/${e.entityId}`;
  if (e.entity === 'channel') return `/channels/${e.entityId}`;
  if (e.entity === 'partner') return `/partners/${e.entityId}`;
  if (e.entity === 'product') return `/products/${e.entityId}`;
  return null;
}

const CSV_COLUMNS: CsvColumn<AuditEntry>[] = [
  { title: '时间', value: (r) => formatShanghai(r.createdAt, 'second') },
  { title: '操作人', value: (r) => staffText(r.staffName) },
  { title: '操作人ID', value: (r) => r.staffId },
  { title: '操作', value: (r) => actionText(r.action) },
  { title: '对象', value: (r) => entityText(r.entity) },
  { title: '对象ID', value: (r) => r.entityId },
  { title: '变更', value: (r) => changeText(r) },
  { title: '修改前', value: (r) => snapshotText(r.entity, r.before) },
  { title: '修改后', value: (r) => snapshotText(r.entity, r.after) },
  { title: '原因', value: (r) => r.reason },
  { title: 'IP', value: (r) => r.ip },
];

function DiffView({ entry }: { entry: AuditEntry }) {
  const rows = diffEntries(entry.entity, entry.before, entry.after);
  if (rows.length === 0) return <Typography.Text type="secondary">没有记录变更内容</Typography.Text>;
  return (
    <Table
      rowKey="key"
      size="small"
      pagination={false}
      dataSource={rows}
      style={{ maxWidth: 900 }}
      columns={[
        { title: '字段', dataIndex: 'label', width: 180 },
        {
          title: '修改前',
          dataIndex: 'before',
          render: (v: string, r) => (
            <Typography.Text
              delete={r.changed && r.kind !== 'added' && v !== ''}
              type={r.changed ? 'danger' : undefined}
            >
              {v || '（无）'}
            </Typography.Text>
          ),
        },
        {
          title: '修改后',
          dataIndex: 'after',
          render: (v: string, r) => (
            <Typography.Text type={r.changed ? 'success' : undefined} strong={r.changed}>
              {v || '（无）'}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}

export interface AuditTableProps {
  filters: AuditFilters;
  onFiltersChange: (next: AuditFilters) => void;
}

/** The audit log: who, what, before and after, reason, when; filters and CSV export. */
export function AuditTable({ filters, onFiltersChange }: AuditTableProps) {
  const query = useAuditLog(filters);
  const facets = useAuditFacets();
  const { set } = listFilters(filters, onFiltersChange);

  const columns: TableColumnsType<AuditEntry> = [
    {
      title: '时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sorter: true,
      sortOrder: filters.order === 'asc' ? 'ascend' : 'descend',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (v: string) => formatShanghai(v, 'second'),
    },
    { title: '操作人', dataIndex: 'staffName', width: 120, render: (v: string) => staffText(v) },
    {
      title: '操作',
      dataIndex: 'action',
      width: 110,
      render: (v: string) => <Tag color={ACTION_COLOR[v]}>{actionText(v)}</Tag>,
    },
    {
      title: '对象',
      key: 'subject',
      width: 150,
      render: (_, r) => {
        const text = `${entityText(r.entity)}${r.entityId ? ` #${r.entityId}` : ''}`;
        const to = subjectLink(r);
        return to ? <Link to={to}>{text}</Link> : text;
      },
    },
    {
      title: '变更',
      key: 'diff',
      ellipsis: true,
      render: (_, r) => changeText(r) || '—',
    },
    {
      title: '原因',
      dataIndex: 'reason',
      width: 220,
      ellipsis: true,
      render: (v: string | null) => v ?? '—',
    },
    { title: 'IP', dataIndex: 'ip', width: 130, render: (v: string | null) => v ?? '—' },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label="对象类型"
          allowClear
          placeholder="全部对象"
          style={{ width: 140 }}
          value={filters.entity}
          options={(facets.data?.entities ?? []).map((e) => ({ value: e, label: entityText(e) }))}
          onChange={(entity?: string) => set({ entity })}
        />
        <SearchFilter
          aria-label="对象ID"
          placeholder="对象ID"
          style={{ width: 140 }}
          value={filters.entityId}
          onSearch={(entityId) => set({ entityId })}
        />
        <Select
          aria-label="操作人"
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="全部操作人"
          style={{ width: 160 }}
          value={filters.staffId}
          options={(facets.data?.staff ?? []).map((s) => ({ value: s.id, label: s.name }))}
          onChange={(staffId?: number) => set({ staffId })}
        />
        <Select
          aria-label="操作"
          allowClear
          placeholder="全部操作"
          style={{ width: 140 }}
          value={filters.action}
          options={(facets.data?.actions ?? []).map((a) => ({ value: a, label: actionText(a) }))}
          onChange={(action?: string) => set({ action })}
        />
        <DateRangeFilter label="操作日期" from={filters.from} to={filters.to} onChange={set} />
        <RefreshButton query={query} />
        <ListExportButton
          fetchPage={getAuditLog}
          filters={filters}
          columns={CSV_COLUMNS}
          name="操作日志"
          total={query.data?.total}
          notifyCount
        />
      </Space>
      <ListTable<AuditEntry>
        query={query}
        errorMessage="操作日志加载失败"
        columns={columns}
        scroll={{ x: 1200 }}
        expandable={{
          expandedRowRender: (r) => <DiffView entry={r} />,
          rowExpandable: (r) => r.before !== null || r.after !== null,
        }}
        locale={{ emptyText: '暂无符合条件的操作记录' }}
        onChange={(pagination, _f, sorter) => {
          const s = singleSorter(sorter);
          const order = s?.order === 'ascend' ? 'asc' : undefined;
          const pageSize = pagination.pageSize ?? filters.pageSize;
          const changed = order !== filters.order || pageSize !== filters.pageSize;
          onFiltersChange({ ...filters, order, pageSize, page: changed ? 1 : (pagination.current ?? 1) });
        }}
        pagination={tablePagination(filters, query.data?.total, '条')}
      />
    </Card>
  );
}
