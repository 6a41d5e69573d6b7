import { applicationAnswerText, applicationFieldLabel } from '@lm/shared/schemas/admin-catalog';
import type { AdminUserDetail } from '@lm/shared/schemas/admin-leads';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Popconfirm,
  Row,
  Skeleton,
  Space,
  Table,
  Tag,
  Timeline,
  Tooltip,
  Typography,
} from 'antd';
import { Link } from 'react-router';
import { downloadCsv, toCsv } from '@/lib/csv';
import { notifySuccess } from '@/lib/notify';
import { useUser } from '../api/get-user';
import { useSetAdReporting } from '../api/set-ad-reporting';
import {
  FACE_STATUS_TEXT,
  fieldText,
  formatShanghai,
  LEAD_OUTCOME_COLOR,
  LEAD_STATUS_COLOR,
  LEAD_STATUS_TEXT,
  MATCH_SOURCE_TEXT,
  MATCH_TYPE_TEXT,
  NOTICE_KIND_TEXT,
  NOTICE_STATUS_TEXT,
  noticeOverdue,
  OFFER_STATUS_TEXT,
  outcomeText,
  RELATIONSHIP_TEXT,
  USER_INFO_STATUS_TEXT,
  USER_STATUS_TEXT,
} from '../format';
import { Revealable } from './reveal-field';

type Detail = AdminUserDetail;

/**
 * 广告效果回传 (隐私政策 第六条): whether conversions of this person still go to the ad platforms; admin and operator
 * record the person's objection (received by phone or e-mail) or its withdrawal.
 */
function AdReporting({ d, canChange }: { d: Detail; canChange: boolean }) {
  const u = d.user;
  const change = useSetAdReporting();
  const objected = u.adReportingObjectedAt !== null;
  return (
    <Space wrap size={[8, 4]}>
      {objected ? (
        <Tag color="orange">已停止回传（{formatShanghai(u.adReportingObjectedAt)}，依本人要求）</Tag>
      ) : (
        <Tag color="green">正常回传</Tag>
      )}
      {canChange ? (
        <Popconfirm
          title={objected ? '恢复广告效果回传？' : '停止广告效果回传？'}
          description={
            <div style={{ maxWidth: 320 }}>
              {objected
                ? '本人撤回异议后才可恢复。恢复后，此人今后经广告点击登录时会重新归因，之后的注册、授信、放款等转化会回传给广告平台；停止期间的行为不会补传。操作会记录到操作日志。'
                : '依本人要求停止后，尚未发出的回传会被删除，此人与广告点击的关联会被解除，今后不再就此人的行为向广告平台回传。已发出的回传不能撤回。操作会记录到操作日志。'}
            </div>
          }
          okText={objected ? '恢复回传' : '停止回传'}
          okButtonProps={objected ? {} : { danger: true }}
          cancelText="取消"
          onConfirm={() =>
            change
              .mutateAsync({ userId: u.id, objected: !objected })
              .then(() => notifySuccess(objected ? '已恢复广告效果回传' : '已停止广告效果回传'))
          }
        >
          <Button size="small" danger={!objected} loading={change.isPending}>
            {objected ? '恢复回传' : '停止回传'}
          </Button>
        </Popconfirm>
      ) : null}
    </Space>
  );
}

function Profile({ d, canReveal, canChange }: { d: Detail; canReveal: boolean; canChange: boolean }) {
  const u = d.user;
  return (
    <Card title="基本信息" size="small">
      <Descriptions column={{ xs: 1, md: 2 }} size="small">
        <Descriptions.Item label="用户ID">{u.id}</Descriptions.Item>
        <Descriptions.Item label="手机号">
          {u.status === 'active' ? (
            <Revealable userId={u.id} field="mobile" masked={u.phoneMasked} canReveal={canReveal} />
          ) : (
            <span>{u.phoneMasked}（已注销，已删除）</span>
          )}
        </Descriptions.Item>
        <Descriptions.Item label="真实姓名">
          <Revealable
            userId={u.id}
            field="realName"
            masked={d.draft?.realNameMasked ?? null}
            canReveal={canReveal}
          />
        </Descriptions.Item>
        <Descriptions.Item label="身份证号">
          <Revealable
            userId={u.id}
            field="identity"
            masked={d.draft?.identityMasked ?? null}
            canReveal={canReveal}
          />
        </Descriptions.Item>
        <Descriptions.Item label="账号状态">
          <Tag color={u.status === 'active' ? 'green' : 'default'}>{USER_STATUS_TEXT[u.status]}</Tag>
          {u.cancelledAt ? `注销于 ${formatShanghai(u.cancelledAt)}` : null}
        </Descriptions.Item>
        <Descriptions.Item label="资料状态">
          {USER_INFO_STATUS_TEXT[u.userInfoStatus] ?? u.userInfoStatus}
        </Descriptions.Item>
        <Descriptions.Item label="渠道">{u.channelCode ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="登录时的皮肤">
          {u.abTestType === null || u.abTestType === undefined ? '—' : `皮肤${u.abTestType}`}
        </Descriptions.Item>
        <Descriptions.Item label="注册时间">{formatShanghai(u.createdAt)}</Descriptions.Item>
        <Descriptions.Item label="最近登录">{formatShanghai(u.lastLoginAt)}</Descriptions.Item>
        <Descriptions.Item label="广告效果回传">
          <AdReporting d={d} canChange={canChange} />
        </Descriptions.Item>
      </Descriptions>
      {d.draft ? (
        <>
          <Typography.Text type="secondary">
            申请资料（{formatShanghai(d.draft.updatedAt)} 更新）
          </Typography.Text>
          <Descriptions column={{ xs: 2, md: 4 }} size="small" style={{ marginTop: 8 }}>
            {Object.entries(d.draft.answers).map(([k, v]) => (
              <Descriptions.Item key={k} label={applicationFieldLabel(k)}>
                {applicationAnswerText(k, v)}
              </Descriptions.Item>
            ))}
          </Descriptions>
        </>
      ) : (
        <Typography.Text type="secondary">尚未填写申请资料</Typography.Text>
      )}
      {d.credit ? (
        <Descriptions column={1} size="small" style={{ marginTop: 8 }}>
          <Descriptions.Item label="人脸认证">
            {FACE_STATUS_TEXT[d.credit.auditStatus] ?? d.credit.auditStatus}
          </Descriptions.Item>
          <Descriptions.Item label="紧急联系人">
            <Space direction="vertical" size={0}>
              {d.credit.contacts.map((c, i) => (
                <span key={`${c.phoneMasked}-${i}`}>
                  {RELATIONSHIP_TEXT[c.relationship] ?? (c.relationship || '—')}：{c.nameMasked || '—'}{' '}
                  {c.phoneMasked}
                </span>
              ))}
              <Revealable
                userId={u.id}
                field="contacts"
                masked={d.credit.contacts.length ? '' : null}
                canReveal={canReveal}
              />
            </Space>
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </Card>
  );
}

/** Runs → offers → consents → leads, newest run first. */
function Journey({ d, onOpenLead }: { d: Detail; onOpenLead: (id: number) => void }) {
  if (d.runs.length === 0) return <Empty description="还没有匹配记录" />;
  return (
    <Timeline
      items={d.runs.map((run) => ({
        key: run.id,
        color: run.offers.some((o) => o.status === 'consented') ? 'green' : 'blue',
        children: (
          <div>
            <Typography.Text strong>
              匹配 #{run.id} · {formatShanghai(run.createdAt)}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
              {MATCH_SOURCE_TEXT[run.source] ?? run.source} ·{' '}
              {MATCH_TYPE_TEXT[run.matchType] ?? `类型 ${run.matchType}`}
              {run.channelCode ? ` · 渠道 ${run.channelCode}` : ''} · 推荐 {run.offers.length} 家 · 排除{' '}
              {run.excludedCount} 家
            </Typography.Text>
            {run.excluded.length ? (
              <Tooltip
                title={run.excluded
                  .map((e) => `${e.productName ?? `产品 ${e.productId}`}：${e.reasons.join('；')}`)
                  .join('\n')}
                styles={{ root: { whiteSpace: 'pre-line', maxWidth: 480 } }}
              >
                <Button type="link" size="small">
                  排除原因
                </Button>
              </Tooltip>
            ) : null}
            <div style={{ marginTop: 8 }}>
              {run.offers.length === 0 ? (
                <Typography.Text type="secondary">没有可推荐的产品</Typography.Text>
              ) : null}
              {run.offers.map((offer) => {
                const consent = d.consents.find((c) => c.offerId === offer.id);
                const lead = consent ? d.leads.find((l) => l.consentId === consent.id) : undefined;
                return (
                  <Card key={offer.id} size="small" style={{ marginBottom: 8 }}>
                    <Space wrap>
                      <Typography.Text>
                        {offer.rank}. {offer.productName}
                      </Typography.Text>
                      <Typography.Text type="secondary">{offer.partnerName}</Typography.Text>
                      <Tag>{OFFER_STATUS_TEXT[offer.status] ?? offer.status}</Tag>
                    </Space>
                    {consent ? (
                      <div style={{ marginTop: 4 }}>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          授权 {formatShanghai(consent.createdAt)} · {consent.agreementCode} v
                          {consent.agreementVersion} · 摘要 {consent.textHash.slice(0, 12)}… · 字段{' '}
                          {consent.fields.map(fieldText).join('、')}
                        </Typography.Text>
                        {consent.withdrawnAt ? (
                          <Tag style={{ marginLeft: 8 }}>已于 {formatShanghai(consent.withdrawnAt)} 撤回</Tag>
                        ) : null}
                      </div>
                    ) : null}
                    {lead ? (
                      <div style={{ marginTop: 4 }}>
                        <Space wrap>
                          <span>线索 #{lead.id}</span>
                          <Tag color={LEAD_STATUS_COLOR[lead.status]}>{LEAD_STATUS_TEXT[lead.status]}</Tag>
                          {lead.outcome !== null || lead.deliveredAt !== null ? (
                            <Tag color={LEAD_OUTCOME_COLOR[lead.outcome ?? 'pending']}>
                              机构反馈：{outcomeText(lead.outcome)}
                            </Tag>
                          ) : null}
                          <span>发送 {lead.attempts} 次</span>
                          {lead.lastError ? (
                            <Typography.Text type="danger">{lead.lastError}</Typography.Text>
                          ) : null}
                          <Button size="small" type="link" onClick={() => onOpenLead(lead.id)}>
                            发送与反馈记录
                          </Button>
                        </Space>
                      </div>
                    ) : null}
                  </Card>
                );
              })}
            </div>
          </div>
        ),
      }))}
    />
  );
}

function Notices({ d }: { d: Detail }) {
  return (
    <Card
      title="通知机构（撤回 / 删除）"
      size="small"
      extra={<Link to="/privacy/deletions">全部数据删除请求</Link>}
    >
      {d.notices.length === 0 ? (
        <Typography.Text type="secondary">没有发给机构的撤回或删除通知</Typography.Text>
      ) : (
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={d.notices}
          columns={[
            { title: '机构', dataIndex: 'partnerName' },
            { title: '类型', dataIndex: 'kind', render: (v: string) => NOTICE_KIND_TEXT[v] ?? v },
            {
              title: '状态',
              dataIndex: 'status',
              render: (v: string, n) => (
                <>
                  <Tag color={v === 'dead' ? 'error' : v === 'confirmed' ? 'success' : 'processing'}>
                    {NOTICE_STATUS_TEXT[v] ?? v}
                  </Tag>
                  {noticeOverdue(n) ? <Tag color="red">已逾期</Tag> : null}
                </>
              ),
            },
            { title: '发起', dataIndex: 'createdAt', render: (v: string) => formatShanghai(v) },
            {
              title: '删除截止（15 个工作日）',
              dataIndex: 'dueAt',
              render: (v: string | null) => formatShanghai(v),
            },
            { title: '确认', dataIndex: 'confirmedAt', render: (v: string | null) => formatShanghai(v) },
          ]}
        />
      )}
    </Card>
  );
}

function Sessions({ d }: { d: Detail }) {
  const exportCsv = () =>
    downloadCsv(
      `用户${d.user.id}-登录记录`,
      toCsv(d.sessions, [
        { title: '登录时间', value: (s) => formatShanghai(s.createdAt) },
        { title: 'IP（脱敏）', value: (s) => s.ip },
        { title: '设备', value: (s) => s.userAgent },
        { title: '结束时间', value: (s) => formatShanghai(s.revokedAt) },
        { title: '结束原因', value: (s) => s.revokeReason },
      ]),
    );
  return (
    <Card
      title="登录记录"
      size="small"
      extra={
        <Button size="small" disabled={d.sessions.length === 0} onClick={exportCsv}>
          导出 CSV
        </Button>
      }
    >
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={d.sessions}
        scroll={{ x: 560 }}
        locale={{ emptyText: '没有登录记录' }}
        columns={[
          { title: '登录时间', dataIndex: 'createdAt', width: 150, render: (v: string) => formatShanghai(v) },
          { title: 'IP', dataIndex: 'ip', width: 120, render: (v: string | null) => v ?? '—' },
          { title: '设备', dataIndex: 'userAgent', ellipsis: true, render: (v: string | null) => v ?? '—' },
          {
            title: '状态',
            key: 'state',
            width: 160,
            render: (_, s) =>
              s.revokedAt
                ? `已结束 ${formatShanghai(s.revokedAt)}`
                : Date.parse(s.expiresAt) > Date.now()
                  ? '有效'
                  : '已过期',
          },
        ]}
      />
    </Card>
  );
}

export interface UserDetailProps {
  userId: number;
  canReveal: boolean;
  /** admin and operator: may stop or resume the person's conversion reporting. */
  canChange?: boolean;
  onOpenLead: (leadId: number) => void;
}

/** One person: masked profile with reveal-with-reason, the journey, notices to lenders, sessions. */
export function UserDetail({ userId, canReveal, canChange = false, onOpenLead }: UserDetailProps) {
  const query = useUser(userId);
  if (query.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (query.isError) {
    const notFound = 'code' in query.error && query.error.code === 404;
    return (
      <Alert
        type={notFound ? 'warning' : 'error'}
        showIcon
        message={notFound ? '用户不存在' : '用户信息加载失败'}
        description={notFound ? '请检查用户ID，或回到列表重新查找。' : query.error.message}
        action={
          notFound ? null : (
            <Button size="small" onClick={() => void query.refetch()}>
              重试
            </Button>
          )
        }
      />
    );
  }
  const d = query.data;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24}>
        <Profile d={d} canReveal={canReveal} canChange={canChange} />
      </Col>
      <Col xs={24}>
        <Card title="申请历程（匹配 → 推荐 → 授权 → 线索）" size="small">
          <Journey d={d} onOpenLead={onOpenLead} />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Notices d={d} />
      </Col>
      <Col xs={24} xl={12}>
        <Sessions d={d} />
      </Col>
    </Row>
  );
}
