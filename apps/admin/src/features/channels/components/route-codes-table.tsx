import type { RouteCodeItem } from '@lm/shared/schemas/admin-channels';
import { formatShanghai } from '@lm/shared/time';
import {
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { downloadCsv, toCsv } from '@/lib/csv';
import { notifySuccess } from '@/lib/notify';
import { useCreateRouteCode } from '../api/create-route-code';
import { useDeleteRouteCode } from '../api/delete-route-code';
import { useUpdateRouteCode } from '../api/update-route-code';

interface RouteCodeForm {
  routeCode: string;
  planTargetUrl: string;
  enabled: boolean;
}

const formatTime = (iso: string) => formatShanghai(iso, 'second');

/** "3 次，最近 2026-05-10 12:00:01" (Shanghai time). */
const missText = (r: RouteCodeItem) => `${r.missCount} 次，最近 ${formatTime(r.lastMissAt ?? '')}`;

export interface RouteCodesTableProps {
  channelId: number;
  adChannelCode: string;
  routeCodes: RouteCodeItem[];
  canEdit: boolean;
}

/** A channel's route codes (ad links carry `?adRouteCode=`): add, change target or status, delete. */
export function RouteCodesTable({ channelId, adChannelCode, routeCodes, canEdit }: RouteCodesTableProps) {
  const [editing, setEditing] = useState<RouteCodeItem | 'new' | null>(null);
  const [form] = Form.useForm<RouteCodeForm>();
  const create = useCreateRouteCode();
  const update = useUpdateRouteCode();
  const remove = useDeleteRouteCode();

  function open(item: RouteCodeItem | 'new') {
    setEditing(item);
    form.setFieldsValue(
      item === 'new'
        ? { routeCode: '', planTargetUrl: '', enabled: true }
        : { routeCode: item.routeCode, planTargetUrl: item.planTargetUrl ?? '', enabled: item.status === 1 },
    );
  }

  async function save() {
    const v = await form.validateFields();
    const input = {
      channelId,
      routeCode: v.routeCode.trim(),
      planTargetUrl: v.planTargetUrl.trim() || null,
      status: (v.enabled ? 1 : 0) as 0 | 1,
    };
    try {
      if (editing === 'new') await create.mutateAsync(input);
      else await update.mutateAsync(input);
      notifySuccess(editing === 'new' ? '路由码已添加' : '路由码已保存');
      setEditing(null);
    } catch (err) {
      if (err instanceof ApiError && err.code === 400) {
        const field = /路由码/.test(err.msg) ? 'routeCode' : 'planTargetUrl';
        form.setFields([{ name: field, errors: [err.msg] }]);
      }
    }
  }

  const columns: TableColumnsType<RouteCodeItem> = [
    { title: '路由码', dataIndex: 'routeCode', width: 180 },
    {
      title: '计划落地页',
      dataIndex: 'planTargetUrl',
      ellipsis: true,
      render: (v: string | null) =>
        v ?? <Typography.Text type="secondary">使用渠道的计划落地页</Typography.Text>,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (s: number) => (s === 1 ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>),
    },
    { title: '创建时间', dataIndex: 'createdAt', width: 170, render: formatTime },
    {
      title: (
        <Tooltip title="广告链接带着这个路由码、但它没能换取渠道（停用时，或创建之前）的访问次数；访客看到默认落地页">
          失效访问
        </Tooltip>
      ),
      key: 'misses',
      width: 190,
      render: (_, r) =>
        r.missCount > 0 ? missText(r) : <Typography.Text type="secondary">0</Typography.Text>,
    },
    {
      title: '操作',
      key: 'actions',
      width: 130,
      render: (_, r) =>
        canEdit ? (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => open(r)}>
              编辑
            </Button>
            <Popconfirm
              title={`删除路由码 ${r.routeCode}？`}
              description="使用该路由码的广告链接将无法再换取渠道。"
              okText="删除"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={() =>
                remove
                  .mutateAsync({ channelId, routeCode: r.routeCode })
                  .then(() => notifySuccess('路由码已删除'))
              }
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          </Space>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        {canEdit && <Button onClick={() => open('new')}>添加路由码</Button>}
        <Button
          disabled={!routeCodes.length}
          onClick={() =>
            downloadCsv(
              `路由码-${adChannelCode}.csv`,
              toCsv(routeCodes, [
                { title: '路由码', value: (r) => r.routeCode },
                { title: '渠道码', value: () => adChannelCode },
                { title: '计划落地页', value: (r) => r.planTargetUrl },
                { title: '状态', value: (r) => (r.status === 1 ? '启用' : '停用') },
                { title: '创建时间', value: (r) => formatTime(r.createdAt) },
                { title: '失效访问', value: (r) => r.missCount },
                { title: '最近失效访问', value: (r) => (r.lastMissAt ? formatTime(r.lastMissAt) : '') },
              ]),
            )
          }
        >
          导出 CSV
        </Button>
      </Space>
      <Table<RouteCodeItem>
        rowKey="routeCode"
        size="small"
        columns={columns}
        dataSource={routeCodes}
        pagination={routeCodes.length > 10 ? { pageSize: 10 } : false}
        locale={{ emptyText: '还没有路由码' }}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? '添加路由码' : `编辑路由码 ${editing?.routeCode ?? ''}`}
        okText="保存"
        cancelText="取消"
        confirmLoading={create.isPending || update.isPending}
        onOk={() => void save()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="routeCode"
            label="路由码"
            rules={[
              { required: true, message: '请填写路由码' },
              {
                pattern: /^[A-Za-z0-9_.-]{1,64}$/,
                message: '路由码为 1 到 64 位字母、数字、下划线、点或短横线',
              },
            ]}
          >
            <Input disabled={editing !== 'new'} placeholder="如 spring-2026-a" />
          </Form.Item>
          <Form.Item
            name="planTargetUrl"
            label="计划落地页"
            extra="留空则使用渠道的计划落地页；外部地址须为 https，且域名在渠道的允许跳转域名中。"
          >
            <Input placeholder="https://partner.example.com/apply 或 /login?from=plan" />
          </Form.Item>
          <Form.Item name="enabled" label="启用" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
