import {
  PRODUCT_STATUS_LABELS,
  type ProductDetail,
  type ProductStatusValue,
} from '@lm/shared/schemas/admin-catalog';
import { Alert, Button, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useSetProductStatus } from '../api/set-product-status';
import { PRODUCT_STATUS_COLORS } from '../format';

interface Refusal {
  msg: string;
  problems: { code: string; text: string }[];
}

/** The product's status with 上架 / 下架 / 转为草稿; a refused publish shows every reason. */
export function StatusActions({ product, canEdit }: { product: ProductDetail; canEdit: boolean }) {
  const mutation = useSetProductStatus();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const change = async (status: ProductStatusValue) => {
    setRefusal(null);
    try {
      await mutation.mutateAsync({ id: product.id, status });
      notifySuccess(
        status === 'published' ? '已上架，下一次匹配即生效' : status === 'paused' ? '已下架' : '已转为草稿',
      );
    } catch (err) {
      if (err instanceof ApiError) {
        const data = err.data as { problems?: Refusal['problems'] } | null;
        setRefusal({ msg: err.msg, problems: data?.problems ?? [] });
      } else {
        setRefusal({ msg: '操作失败，请稍后重试', problems: [] });
      }
    }
  };
  const s = product.status;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Typography.Text>当前状态</Typography.Text>
        <Tag color={PRODUCT_STATUS_COLORS[s]} data-testid="product-status">
          {PRODUCT_STATUS_LABELS[s]}
        </Tag>
        {canEdit && s !== 'published' && (
          <Button type="primary" loading={mutation.isPending} onClick={() => void change('published')}>
            上架
          </Button>
        )}
        {canEdit && s === 'published' && (
          <Popconfirm
            title="下架该产品？"
            description="下架后立即停止匹配，已发出的授权不受影响。"
            okText="下架"
            cancelText="取消"
            onConfirm={() => change('paused')}
          >
            <Button danger loading={mutation.isPending}>
              下架
            </Button>
          </Popconfirm>
        )}
        {canEdit && s === 'paused' && (
          <Button loading={mutation.isPending} onClick={() => void change('draft')}>
            转为草稿
          </Button>
        )}
      </Space>
      {refusal && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message="不能上架"
          description={
            refusal.problems.length > 0 ? (
              <ul style={{ margin: 0, paddingLeft: 18 }}>
                {refusal.problems.map((p) => (
                  <li key={p.code}>{p.text}</li>
                ))}
              </ul>
            ) : (
              refusal.msg
            )
          }
          closable
          onClose={() => setRefusal(null)}
        />
      )}
      {!refusal && s !== 'published' && product.publishProblems.length > 0 && (
        <Alert
          type="warning"
          showIcon
          message="当前不满足上架条件"
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {product.publishProblems.map((p) => (
                <li key={p.code}>{p.text}</li>
              ))}
            </ul>
          }
        />
      )}
    </Space>
  );
}
