import type { AdminUserItem } from '@lm/shared/schemas/admin-leads';
import { PHONE_PATTERN } from '@lm/shared/validators/phone';
import { Card, Input, Select, Space, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListExportButton } from '@/components/csv-export-button';
import { DateRangeFilter } from '@/components/date-range-filter';
import { ListTable, RefreshButton } from '@/components/list-table';
import {
  columnSortOrder,
  listFilters,
  singleSorter,
  sortedPaging,
  tablePagination,
} from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { notifyError } from '@/lib/notify';
import { getUsers, type UserFilters, useUsers } from '../api/get-users';
import { formatShanghai, leadCountsText, USER_INFO_STATUS_TEXT, USER_STATUS_TEXT } from '../format';

const sortOrder = (f: UserFilters, key: string) => columnSortOrder(f.sort ?? 'createdAt', f.order, key);

const CSV_COLUMNS: CsvColumn<AdminUserItem>[] = [
  { title: '用户ID', value: (r) => r.id },
  { title: '手机号（脱敏）', value: (r) => r.phoneMasked },
  { title: '渠道', value: (r) => r.channelCode },
  { title: '账号状态', value: (r) => USER_STATUS_TEXT[r.status] },
  { title: '资料状态', value: (r) => USER_INFO_STATUS_TEXT[r.userInfoStatus] ?? r.userInfoStatus },
  { title: '授权数', value: (r) => r.consents },
  { title: '线索', value: (r) => leadCountsText(r.leads) },
  { title: '注册时间', value: (r) => formatShanghai(r.createdAt) },
  { title: '最近登录', value: (r) => formatShanghai(r.lastLoginAt) },
];

export interface UserTableProps {
  filters: UserFilters;
  onFiltersChange: (next: UserFilters) => void;
}

/** People: search by full phone, channel, status, dates; masked; CSV export of the filtered list. */
export function UserTable({ filters, onFiltersChange }: UserTableProps) {
  const query = useUsers(filters);
  const [phone, setPhone] = useState(filters.phone ?? '');
  const [channel, setChannel] = useState(filters.channelCode ?? '');
  const { set } = listFilters(filters, onFiltersChange);

  const searchPhone = (value: string) => {
    const v = value.trim();
    if (v && !PHONE_PATTERN.test(v)) {
      notifyError('请输入完整的 11 位手机号（按手机号查找须完整匹配）');
      return;
    }
    set({ phone: v || undefined });
  };

  const columns: TableColumnsType<AdminUserItem> = [
    {
      title: '用户ID',
      dataIndex: 'id',
      width: 90,
      render: (id: number) => <Link to={`/leads/${id}`}>{id}</Link>,
    },
    {
      title: '手机号',
      dataIndex: 'phoneMasked',
      width: 130,
      render: (v: string, r) => <Link to={`/leads/${r.id}`}>{v}</Link>,
    },
    { title: '渠道', dataIndex: 'channelCode', width: 120, render: (v: string | null) => v ?? '—' },
    {
      title: '账号',
      dataIndex: 'status',
      width: 80,
      render: (v: string) => <Tag color={v === 'active' ? 'green' : 'default'}>{USER_STATUS_TEXT[v]}</Tag>,
    },
    {
      title: '资料',
      dataIndex: 'userInfoStatus',
      width: 130,
      render: (v: number, r) => (
        <Tag color={r.formSubmitted ? 'blue' : 'default'}>{USER_INFO_STATUS_TEXT[v] ?? v}</Tag>
      ),
    },
    { title: '授权', dataIndex: 'consents', width: 70 },
    { title: '线索', key: 'leads', render: (_, r) => leadCountsText(r.leads) },
    {
      title: '注册时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 150,
      sorter: true,
      sortOrder: sortOrder(filters, 'createdAt'),
      render: (v: string) => formatShanghai(v),
    },
    {
      title: '最近登录',
      dataIndex: 'lastLoginAt',
      key: 'lastLoginAt',
      width: 150,
      sorter: true,
      sortOrder: sortOrder(filters, 'lastLoginAt'),
      render: (v: string | null) => formatShanghai(v),
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          aria-label="手机号"
          placeholder="完整手机号"
          allowClear
          style={{ width: 200 }}
          value={phone}
          maxLength={11}
          onChange={(e) => setPhone(e.target.value)}
          onSearch={searchPhone}
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
        <Select
          aria-label="账号状态"
          allowClear
          placeholder="账号状态"
          style={{ width: 120 }}
          value={filters.status}
          options={[
            { value: 'active', label: '正常' },
            { value: 'cancelled', label: '已注销' },
          ]}
          onChange={(status?: 'active' | 'cancelled') => set({ status })}
        />
        <Select
          aria-label="资料状态"
          allowClear
          placeholder="资料状态"
          style={{ width: 150 }}
          value={filters.userInfoStatus}
          options={Object.entries(USER_INFO_STATUS_TEXT).map(([v, label]) => ({ value: Number(v), label }))}
          onChange={(userInfoStatus?: number) => set({ userInfoStatus })}
        />
        <DateRangeFilter label="注册日期" from={filters.from} to={filters.to} onChange={set} />
        <RefreshButton query={query} />
        <ListExportButton
          fetchPage={getUsers}
          filters={filters}
          columns={CSV_COLUMNS}
          name="用户"
          total={query.data?.total}
          notifyCount
        />
      </Space>
      <ListTable<AdminUserItem>
        query={query}
        errorMessage="用户列表加载失败"
        columns={columns}
        scroll={{ x: 1100 }}
        locale={{ emptyText: filters.phone ? '没有找到这个手机号的用户' : '暂无符合条件的用户' }}
        onChange={(pagination, _f, sorter) =>
          onFiltersChange({
            ...filters,
            ...sortedPaging(filters, pagination, singleSorter(sorter), 'createdAt'),
          })
        }
        pagination={tablePagination(filters, query.data?.total, '人')}
      />
    </Card>
  );
}
