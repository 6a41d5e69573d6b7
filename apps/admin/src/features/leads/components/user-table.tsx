import type { AdminUserItem } from '@lm/shared/schemas/admin-leads';
import { PHONE_PATTERN } from '@lm/shared/validators/phone';
import { type TableColumnsType, Tag } from 'antd';
import { Link } from 'react-router';

import { SearchFilter, SelectFilter } from '@/components/list-filters';
import { listFilters } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { notifyError } from '@/lib/notify';
import { getUsers, type UserFilters, useUsers } from '../api/get-users';
import { formatShanghai, leadCountsText, USER_INFO_STATUS_TEXT, USER_STATUS_TEXT } from '../format';
import { ChannelCodeFilter, PeopleList } from './people-list';
import { sortedTimeColumn } from './sorted-column';

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
  const { set } = listFilters(filters, onFiltersChange);

  const searchPhone = (phone: string | undefined) => {
    if (phone && !PHONE_PATTERN.test(phone)) {
      notifyError('请输入完整的 11 位手机号（按手机号查找须完整匹配）');
      return;
    }
    set({ phone });
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
    sortedTimeColumn(filters, '注册时间', 'createdAt'),
    sortedTimeColumn(filters, '最近登录', 'lastLoginAt'),
  ];

  return (
    <PeopleList
      list={{ query, filters, onFiltersChange }}
      noun="用户"
      emptyText={filters.phone ? '没有找到这个手机号的用户' : undefined}
      unit="人"
      fetchPage={getUsers}
      dateLabel="注册日期"
      columns={columns}
      csvColumns={CSV_COLUMNS}
      width={1100}
    >
      <SearchFilter
        aria-label="手机号"
        placeholder="完整手机号"
        style={{ width: 200 }}
        value={filters.phone}
        maxLength={11}
        onSearch={searchPhone}
      />
      <ChannelCodeFilter value={filters.channelCode} onSearch={(channelCode) => set({ channelCode })} />
      <SelectFilter
        label="账号状态"
        placeholder="账号状态"
        width={120}
        value={filters.status}
        options={[
          { value: 'active', label: '正常' },
          { value: 'cancelled', label: '已注销' },
        ]}
        onChange={(status?: 'active' | 'cancelled') => set({ status })}
      />
      <SelectFilter
        label="资料状态"
        placeholder="资料状态"
        width={150}
        value={filters.userInfoStatus}
        options={Object.entries(USER_INFO_STATUS_TEXT).map(([v, label]) => ({ value: Number(v), label }))}
        onChange={(userInfoStatus?: number) => set({ userInfoStatus })}
      />
    </PeopleList>
  );
}
