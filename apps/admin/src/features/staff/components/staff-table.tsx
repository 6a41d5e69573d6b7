import type { StaffListItem } from '@lm/shared/schemas/auth';
import { formatShanghai } from '@lm/shared/time';
import { App, Button, Card, Input, Popconfirm, Select, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { CsvExportButton } from '@/components/csv-export-button';
import { columnSortOrder, singleSorter, tablePagination } from '@/components/table-pagination';
import type { CsvColumn } from '@/lib/csv';
import { datedFileName } from '@/lib/fetch-all-pages';
import { getAllStaff, type StaffFilters, type StaffRole, useStaff } from '../api/get-staff';
import { useSetStaffStatus } from '../api/set-staff-status';
import { ResetPasswordModal } from './reset-password-modal';
import { STAFF_ROLE_COLORS, STAFF_ROLE_LABELS } from './roles';
import { StaffFormModal } from './staff-form-modal';

/** Shanghai time, whatever the browser's time zone. */
const fmtTime = (iso: string | null) => formatShanghai(iso);
type SortKey = StaffFilters['sort'];
const SORTABLE: SortKey[] = ['id', 'name', 'role', 'status', 'createdAt', 'lastLoginAt'];

const CSV_COLUMNS: CsvColumn<StaffListItem>[] = [
  { title: '编号', value: (r) => r.id },
  { title: '姓名', value: (r) => r.name },
  { title: '手机号', value: (r) => r.mobile },
  { title: '角色', value: (r) => STAFF_ROLE_LABELS[r.role] },
  { title: '可查看的渠道', value: (r) => r.channelCodes.join(' ') },
  { title: '登录方式', value: (r) => (r.hasPassword ? '密码/短信' : '仅短信') },
  { title: '状态', value: (r) => (r.status === 'active' ? '启用' : '已禁用') },
  { title: '最近登录', value: (r) => fmtTime(r.lastLoginAt) },
  { title: '创建时间', value: (r) => fmtTime(r.createdAt) },
];

/** 账号管理 (admin only): list, create, edit (role, channels), disable/enable, reset password, CSV. */
export function StaffTable({ selfId }: { selfId: number | undefined }) {
  const { message } = App.useApp();
  const [filters, setFilters] = useState<StaffFilters>({ sort: 'id', order: 'asc', page: 1, pageSize: 20 });
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<StaffListItem | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [resetting, setResetting] = useState<StaffListItem | null>(null);
  const staff = useStaff(filters);
  const setStatus = useSetStaffStatus({
    onSuccess: (m) => void message.success(m.status === 'disabled' ? '账号已禁用' : '账号已启用'),
  });
  const sortOrder = (key: SortKey) => columnSortOrder(filters.sort, filters.order, key);

  const columns: TableColumnsType<StaffListItem> = [
    { title: '编号', dataIndex: 'id', key: 'id', width: 80, sorter: true, sortOrder: sortOrder('id') },
    { title: '姓名', dataIndex: 'name', key: 'name', sorter: true, sortOrder: sortOrder('name') },
    { title: '手机号', dataIndex: 'mobile', key: 'mobile' },
    {
      title: '角色',
      dataIndex: 'role',
      key: 'role',
      sorter: true,
      sortOrder: sortOrder('role'),
      render: (r: StaffRole) => <Tag color={STAFF_ROLE_COLORS[r]}>{STAFF_ROLE_LABELS[r]}</Tag>,
    },
    {
      title: '可查看的渠道',
      dataIndex: 'channelCodes',
      key: 'channelCodes',
      render: (codes: string[], r) =>
        r.role === 'channel_partner' ? codes.map((c) => <Tag key={c}>{c}</Tag>) : '—',
    },
    {
      title: '登录方式',
      key: 'login',
      render: (_, r) => (r.hasPassword ? '密码 / 短信验证码' : '仅短信验证码'),
    },
    {
      title: '状态',
      dataIndex: 'status',
      key: 'status',
      sorter: true,
      sortOrder: sortOrder('status'),
      render: (s: string) =>
        s === 'active' ? <Tag color="green">启用</Tag> : <Tag color="default">已禁用</Tag>,
    },
    {
      title: '最近登录',
      dataIndex: 'lastLoginAt',
      key: 'lastLoginAt',
      sorter: true,
      sortOrder: sortOrder('lastLoginAt'),
      render: fmtTime,
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      key: 'createdAt',
      sorter: true,
      sortOrder: sortOrder('createdAt'),
      render: fmtTime,
    },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      render: (_, r) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            onClick={() => {
              setEditing(r);
              setFormOpen(true);
            }}
          >
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => setResetting(r)}>
            重置密码
          </Button>
          {r.id !== selfId && (
            <Popconfirm
              title={r.status === 'active' ? `禁用 ${r.name}？` : `启用 ${r.name}？`}
              description={r.status === 'active' ? '禁用后该账号立即退出登录，且无法再登录。' : undefined}
              okText="确定"
              cancelText="取消"
              onConfirm={() =>
                setStatus.mutateAsync({ id: r.id, status: r.status === 'active' ? 'disabled' : 'active' })
              }
            >
              <Button type="link" size="small" danger={r.status === 'active'}>
                {r.status === 'active' ? '禁用' : '启用'}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder="姓名或完整手机号"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilters({ ...filters, keyword: v.trim() || undefined, page: 1 })}
          style={{ width: 220 }}
        />
        <Select
          allowClear
          placeholder="全部角色"
          style={{ width: 140 }}
          value={filters.role}
          options={(Object.keys(STAFF_ROLE_LABELS) as StaffRole[]).map((r) => ({
            value: r,
            label: STAFF_ROLE_LABELS[r],
          }))}
          onChange={(role?: StaffRole) => setFilters({ ...filters, role, page: 1 })}
        />
        <Select
          allowClear
          placeholder="全部状态"
          style={{ width: 120 }}
          value={filters.status}
          options={[
            { value: 'active', label: '启用' },
            { value: 'disabled', label: '已禁用' },
          ]}
          onChange={(status?: 'active' | 'disabled') => setFilters({ ...filters, status, page: 1 })}
        />
        <Button
          type="primary"
          onClick={() => {
            setEditing(null);
            setFormOpen(true);
          }}
        >
          新建账号
        </Button>
        <CsvExportButton
          load={() => getAllStaff(filters)}
          columns={CSV_COLUMNS}
          fileName={() => datedFileName('后台账号')}
          onError={() => void message.error('导出失败，请稍后重试')}
          disabled={!staff.data?.total}
        />
      </Space>
      <Table<StaffListItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={staff.data?.list ?? []}
        loading={staff.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: staff.isError ? `加载失败：${staff.error.message}` : '没有符合条件的账号' }}
        pagination={tablePagination(filters, staff.data?.total, '个账号')}
        onChange={(p, _f, sorter) => {
          const s = singleSorter(sorter);
          const sort =
            s?.order && SORTABLE.includes(s.columnKey as SortKey) ? (s.columnKey as SortKey) : 'id';
          const order = s?.order === 'descend' ? 'desc' : 'asc';
          const changed = sort !== filters.sort || order !== filters.order;
          setFilters({
            ...filters,
            sort,
            order,
            page: changed ? 1 : (p.current ?? 1),
            pageSize: p.pageSize ?? 20,
          });
        }}
      />
      <StaffFormModal open={formOpen} editing={editing} selfId={selfId} onClose={() => setFormOpen(false)} />
      <ResetPasswordModal member={resetting} onClose={() => setResetting(null)} />
    </Card>
  );
}
