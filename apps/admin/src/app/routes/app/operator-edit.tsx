import { Result, Skeleton } from 'antd';
import { Link, useNavigate } from 'react-router';
import { EditPageHeader } from '@/components/page-header';
import { QueryErrorResult } from '@/components/query-error';
import { useMe } from '@/features/auth/api/get-me';
import { useCanEdit } from '@/features/auth/use-can-edit';
import { useOperator } from '@/features/operators/api/get-operator';
import { OperatorForm } from '@/features/operators/components/operator-form';
import { useEditId } from '@/hooks/use-edit-id';
import { notifySuccess } from '@/lib/notify';

/** 编辑运营主体 (/operators/:id, or /operators/new). */
export function OperatorEditRoute() {
  const { isNew, id, valid } = useEditId();
  const navigate = useNavigate();
  const me = useMe();
  const canEdit = useCanEdit();
  const operator = useOperator(valid && !isNew ? id : null);

  if (!valid)
    return <Result status="404" title="运营主体不存在" extra={<Link to="/operators">返回列表</Link>} />;

  const title = isNew ? '新建运营主体' : (operator.data?.companyName ?? '编辑运营主体');
  return (
    <>
      <EditPageHeader
        list={{ to: '/operators', label: '运营主体' }}
        crumb={isNew ? '新建' : `#${id}`}
        title={title}
        readOnly={!canEdit && !me.isLoading}
      />
      {!isNew && operator.isLoading && <Skeleton active paragraph={{ rows: 8 }} />}
      {!isNew && operator.isError && (
        <QueryErrorResult
          title="运营主体加载失败"
          error={operator.error}
          onRetry={() => operator.refetch()}
        />
      )}
      {(isNew || operator.data) && (
        <OperatorForm
          key={operator.data?.updatedAt ?? 'new'}
          operator={isNew ? null : (operator.data ?? null)}
          canEdit={canEdit}
          onSaved={(saved) => {
            notifySuccess(isNew ? '运营主体已创建' : '已保存，相关渠道立即生效');
            if (isNew) navigate(`/operators/${saved.id}`, { replace: true });
          }}
        />
      )}
    </>
  );
}
