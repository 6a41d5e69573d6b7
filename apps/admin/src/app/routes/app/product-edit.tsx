import { Alert, Breadcrumb, Button, Card, Col, Result, Row, Skeleton, Typography } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { useMe } from '@/features/auth/api/get-me';
import { useCreateProduct } from '@/features/products/api/create-product';
import { useProduct } from '@/features/products/api/get-product';
import { useUpdateProduct } from '@/features/products/api/update-product';
import { CapProgress } from '@/features/products/components/cap-progress';
import { ProductForm, toBody } from '@/features/products/components/product-form';
import { StatusActions } from '@/features/products/components/status-actions';
import { notifySuccess } from '@/lib/notify';

/** 编辑产品 (/products/:id, or /products/new): status, today's counters against the caps, the form. */
export function ProductEditRoute() {
  const { id: raw } = useParams();
  const isNew = raw === 'new';
  const id = isNew ? null : Number(raw);
  const valid = isNew || (Number.isInteger(id) && (id ?? 0) > 0);
  const navigate = useNavigate();
  const me = useMe();
  const canEdit = me.data?.role === 'admin' || me.data?.role === 'operator';
  const product = useProduct(valid && !isNew ? id : null);
  const create = useCreateProduct();
  const update = useUpdateProduct();

  if (!valid) return <Result status="404" title="产品不存在" extra={<Link to="/products">返回列表</Link>} />;
  const p = product.data;

  return (
    <>
      <Breadcrumb
        style={{ marginBottom: 8 }}
        items={[{ title: <Link to="/products">产品管理</Link> }, { title: isNew ? '新建' : `#${id}` }]}
      />
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {isNew ? '新建产品' : (p?.productName ?? '编辑产品')}
      </Typography.Title>
      {!canEdit && !me.isLoading && (
        <Alert type="info" showIcon message="只读账号：可以查看，不能修改" style={{ marginBottom: 16 }} />
      )}
      {!isNew && product.isLoading && <Skeleton active paragraph={{ rows: 10 }} />}
      {!isNew && product.isError && (
        <Result
          status="error"
          title="产品加载失败"
          subTitle={product.error.message}
          extra={<Button onClick={() => product.refetch()}>重试</Button>}
        />
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
