import type { PartnerSecretData } from '@lm/shared/schemas/admin-catalog';
import { formatShanghai } from '@lm/shared/time';
import { Button, Card, Descriptions, Popconfirm, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EditPageHeader } from '@/components/page-header';
import { QueryErrorResult } from '@/components/query-error';
import { useMe } from '@/features/auth/api/get-me';
import { useCanEdit } from '@/features/auth/use-can-edit';
import { usePartner } from '@/features/partners/api/get-partner';
import { useRotateSecret } from '@/features/partners/api/rotate-secret';
import { PartnerForm } from '@/features/partners/components/partner-form';
import { PartnerOutcomes } from '@/features/partners/components/partner-outcomes';
import { ReconcileCard } from '@/features/partners/components/reconcile-card';
import { SecretModal } from '@/features/partners/components/secret-modal';
import { useEditId } from '@/hooks/use-edit-id';
import { notifySuccess } from '@/lib/notify';

const formatTime = (iso: string | null) => (iso ? formatShanghai(iso, 'second') : '从未轮换');

/** 编辑机构 (/partners/:id, or /partners/new): the form, the signing secret's rotation and the lender's outcomes (机构反馈). */
export function PartnerEditRoute() {
  const { isNew, id, valid } = useEditId();
  const navigate = useNavigate();
  const me = useMe();
  const canEdit = useCanEdit();
  const partner = usePartner(valid && !isNew ? id : null);
  const rotate = useRotateSecret();
  const [shown, setShown] = useState<PartnerSecretData | null>(null);
  const [afterClose, setAfterClose] = useState<string | null>(null);

  if (!valid) return <Result status="404" title="机构不存在" extra={<Link to="/partners">返回列表</Link>} />;

  const title = isNew ? '新建机构' : (partner.data?.legalName ?? '编辑机构');
  return (
    <>
      <EditPageHeader
        list={{ to: '/partners', label: '合作机构' }}
        crumb={isNew ? '新建' : `#${id}`}
        title={title}
        readOnly={!canEdit && !me.isLoading}
      />
      {!isNew && partner.isLoading && <Skeleton active paragraph={{ rows: 8 }} />}
      {!isNew && partner.isError && (
        <QueryErrorResult title="机构加载失败" error={partner.error} onRetry={() => partner.refetch()} />
      )}
      {!isNew && partner.data && (
        <Card title="签名密钥" style={{ marginBottom: 16 }}>
          <Descriptions size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="状态">{partner.data.hasSecret ? '已配置' : '未配置'}</Descriptions.Item>
            <Descriptions.Item label="上次轮换">{formatTime(partner.data.secretRotatedAt)}</Descriptions.Item>
            <Descriptions.Item label="旧密钥回调有效至">
              {partner.data.previousSecretValidUntil
                ? formatTime(partner.data.previousSecretValidUntil)
                : '—'}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Paragraph type="secondary">
            轮换后线索推送立即使用新密钥签名；机构回调在 24
            小时内仍接受旧密钥，之后只接受新密钥。新密钥只显示一次。
          </Typography.Paragraph>
          {canEdit && (
            <Popconfirm
              title="轮换签名密钥？"
              description="请先与机构确认，24 小时内对方须换用新密钥。"
              okText="轮换"
              cancelText="取消"
              onConfirm={() =>
                rotate
                  .mutateAsync({ id: partner.data.id })
                  .then((data) => setShown(data))
                  .catch(() => undefined)
              }
            >
              <Button danger loading={rotate.isPending}>
                轮换密钥
              </Button>
            </Popconfirm>
          )}
        </Card>
      )}
      {!isNew && partner.data && <PartnerOutcomes partnerId={partner.data.id} />}
      {(isNew || partner.data) && (
        <PartnerForm
          key={partner.data?.updatedAt ?? 'new'}
          partner={isNew ? null : (partner.data ?? null)}
          canEdit={canEdit}
          onSaved={() => notifySuccess('已保存')}
          onCreated={(data) => {
            setShown(data);
            setAfterClose(`/partners/${data.partner.id}`);
          }}
        />
      )}
      {!isNew && partner.data && canEdit && (
        <ReconcileCard partnerId={partner.data.id} partnerCode={partner.data.code} />
      )}
      <SecretModal
        secret={shown?.secret ?? null}
        previousSecretValidUntil={shown?.previousSecretValidUntil ?? null}
        onClose={() => {
          setShown(null);
          if (afterClose) {
            navigate(afterClose, { replace: true });
            setAfterClose(null);
          }
        }}
      />
    </>
  );
}
