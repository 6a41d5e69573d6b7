import { Card, Col, Result, Row, Skeleton } from 'antd';
import { Link, useNavigate } from 'react-router';
import { EditPageHeader } from '@/components/page-header';
import { QueryErrorResult } from '@/components/query-error';
import { useMe } from '@/features/auth/api/get-me';
import { useCanEdit } from '@/features/auth/use-can-edit';
import { useCreateProduct } from '@/features/products/api/create-product';
import { useProduct } from '@/features/products/api/get-product';
import { useUpdateProduct } from '@/features/products/api/update-product';
import { CapProgress } from '@/features/products/components/cap-progress';
import { ProductForm, toBody } from '@/features/products/components/product-form';
import { ProductPrices } from '@/features/products/components/product-prices';
import { StatusActions } from '@/features/products/components/status-actions';
import { useEditId } from '@/hooks/use-edit-id';
import { notifySuccess } from '@/lib/notify';

/** 编辑产品 (/products/:id, or /products/new): status, today's counters against the caps, lead prices, the form. */
export function ProductEditRoute() {
  const { isNew, id, valid } = useEditId();
  const navigate = useNavigate();
  const me = useMe();
  const canEdit = useCanEdit();
  const product = useProduct(valid && !isNew ? id : null);
  const create = useCreateProduct();
  const update = useUpdateProduct();

  if (!valid) return <Result status="404" title="产品不存在" extra={<Link to="/products">返回列表</Link>} />;
  const p = product.data;

  return (
    <>
      <EditPageHeader
        list={{ to: '/products', label: '产品管理' }}
        crumb={isNew ? '新建' : `#${id}`}
        title={isNew ? '新建产品' : (p?.productName ?? '编辑产品')}
        readOnly={!canEdit && !me.isLoading}
      />
      {!isNew && product.isLoading && <Skeleton active paragraph={{ rows: 10 }} />}
      {!isNew && product.isError && (
        <QueryErrorResult title="产品加载失败" error={product.error} onRetry={() => product.refetch()} />
      )}
      {p && (
        <Row gutter={16} style={{ marginBottom: 16 }}>
          <Col xs={24} md={14}>
            <Card title="上架状态" style={{ height: '100%' }}>
              <StatusActions product={p} canEdit={canEdit} />
            </Card>
          </Col>
          <Col xs={24} md={10}>
            <Card title="名额（实时）" style={{ height: '100%' }}>
              <CapProgress label="今日" count={p.todayCount} cap={p.dailyCap} />
              <div style={{ height: 12 }} />
              <CapProgress label="累计" count={p.totalCount} cap={p.totalCap} />
            </Card>
          </Col>
        </Row>
      )}
      {p && <ProductPrices productId={p.id} isAdmin={me.data?.role === 'admin'} />}
      {(isNew || p) && (
        <ProductForm
          key={p?.updatedAt ?? 'new'}
          product={isNew ? null : (p ?? null)}
          canEdit={canEdit}
          saving={create.isPending || update.isPending}
          onSubmit={(values) => {
            const body = toBody(values);
            if (p) {
              update
                .mutateAsync({ id: p.id, body })
                .then(() => notifySuccess('已保存'))
                .catch(() => undefined);
            } else {
              create
                .mutateAsync({ ...body, code: values.code })
                .then((created) => {
                  notifySuccess('已创建草稿');
                  navigate(`/products/${created.id}`, { replace: true });
                })
                .catch(() => undefined);
            }
          }}
        />
      )}
    </>
  );
}
