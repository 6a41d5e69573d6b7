import {
  CHANNEL_COST_MODEL_BASIS,
  CHANNEL_COST_MODEL_LABELS,
  CHANNEL_COST_MODELS,
  type ChannelCostModel,
  channelCostUnit,
} from '@lm/shared/ledger';
import { percentTextToBps, yuanTextToFen } from '@lm/shared/money';
import { PRICE_MAX_BPS, PRICE_MIN_BPS } from '@lm/shared/prices';
import {
  CHANNEL_COST_MAX_FEN,
  type ChannelCost,
  type ChannelCostsData,
} from '@lm/shared/schemas/channel-costs';
import { formatShanghai, shanghaiDate } from '@lm/shared/time';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Select,
  Skeleton,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { Link } from 'react-router';
import { QueryErrorResult } from '@/components/query-error';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useAddChannelCost } from '../api/add-channel-cost';
import { useChannelCosts } from '../api/get-channel-costs';
import { costText } from '../format';

type RowState = 'scheduled' | 'inForce' | 'replaced';
const STATE_TAGS: Record<RowState, { color: string; text: string }> = {
  scheduled: { color: 'blue', text: '待生效' },
  inForce: { color: 'green', text: '生效中' },
  replaced: { color: 'default', text: '已被取代' },
};

function rowState(c: ChannelCost, data: ChannelCostsData): RowState {
  if (c.effectiveFrom > data.today) return 'scheduled';
  return data.inForce?.id === c.id ? 'inForce' : 'replaced';
}

interface FormValues {
  model: ChannelCostModel;
  amount?: string;
  percent?: string;
  effectiveFrom: Dayjs;
}

const AMOUNT_LABEL: Record<ChannelCostModel, string> = {
  cpc: '每次点击',
  cpa_register: '每个注册',
  cpa_lead: '每条线索',
  rev_share: '线索收入的',
  spend: '',
};

function valueRule(model: ChannelCostModel) {
  return {
    validator: async (_: unknown, value: string | undefined) => {
      const unit = channelCostUnit(model);
      if (unit === 'none') return;
      if (!value?.trim()) throw new Error(unit === 'fen' ? '请输入单价（元）' : '请输入分成比例（%）');
      if (unit === 'fen') {
        const r = yuanTextToFen(value, { maxFen: CHANNEL_COST_MAX_FEN });
        if ('problem' in r) throw new Error(r.problem);
        return;
      }
      const r = percentTextToBps(value);
      if ('problem' in r) throw new Error(r.problem);
      if (r.bps < PRICE_MIN_BPS || r.bps > PRICE_MAX_BPS) throw new Error('分成比例应在 0.01%–100% 之间');
    },
  };
}

/** The admin's form: a cost model from a day (today or later). */
function AddCostForm({ channelId }: { channelId: number }) {
  const [form] = Form.useForm<FormValues>();
  const add = useAddChannelCost();
  const model = Form.useWatch('model', form) ?? 'cpc';
  const unit = channelCostUnit(model);
  const today = shanghaiDate();
  const error = add.error instanceof ApiError ? add.error.msg : add.error ? '保存失败，请稍后再试' : null;

  const submit = (v: FormValues) => {
    const effectiveFrom = v.effectiveFrom.format('YYYY-MM-DD');
    const u = channelCostUnit(v.model);
    let value: { amountFen: number } | { bps: number } | Record<string, never> = {};
    if (u === 'fen') {
      const r = yuanTextToFen(v.amount ?? '', { maxFen: CHANNEL_COST_MAX_FEN });
      if ('problem' in r) return;
      value = { amountFen: r.fen };
    } else if (u === 'bps') {
      const r = percentTextToBps(v.percent ?? '');
      if ('problem' in r) return;
      value = { bps: r.bps };
    }
    add
      .mutateAsync({ id: channelId, body: { model: v.model, ...value, effectiveFrom } })
      .then(() => {
        notifySuccess(`已设置：${CHANNEL_COST_MODEL_LABELS[v.model]}自 ${effectiveFrom} 起生效`);
        form.resetFields(['amount', 'percent']);
      })
      .catch(() => undefined);
  };

  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        设置渠道成本
      </Typography.Title>
      <Form<FormValues>
        form={form}
        layout="inline"
        initialValues={{ model: 'cpc', effectiveFrom: dayjs(today) }}
        onFinish={submit}
        onValuesChange={() => add.reset()}
        style={{ rowGap: 8 }}
      >
        <Form.Item name="model" label="计费方式">
          <Select
            aria-label="计费方式"
            style={{ width: 190 }}
            options={CHANNEL_COST_MODELS.map((m) => ({ value: m, label: CHANNEL_COST_MODEL_LABELS[m] }))}
          />
        </Form.Item>
        {unit === 'fen' && (
          <Form.Item
            key="amount"
            name="amount"
            label={AMOUNT_LABEL[model]}
            rules={[valueRule(model)]}
            validateTrigger="onBlur"
          >
            <Input style={{ width: 150 }} suffix="元" placeholder="如 0.50" inputMode="decimal" />
          </Form.Item>
        )}
        {unit === 'bps' && (
          <Form.Item
            key="percent"
            name="percent"
            label={AMOUNT_LABEL[model]}
            rules={[valueRule(model)]}
            validateTrigger="onBlur"
          >
            <Input style={{ width: 130 }} suffix="%" placeholder="如 15" inputMode="decimal" />
          </Form.Item>
        )}
        <Form.Item
          name="effectiveFrom"
          label="生效日期"
          rules={[{ required: true, message: '请选择生效日期' }]}
          tooltip="自该日 00:00（北京时间）起适用；只能是今天或以后，已发生的费用不受影响"
        >
          <DatePicker
            allowClear={false}
            disabledDate={(d) => d.format('YYYY-MM-DD') < today}
            style={{ width: 140 }}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            保存渠道成本
          </Button>
        </Form.Item>
      </Form>
      {unit === 'none' && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8 }}>
          按投放消耗计费时，渠道成本来自 <Link to="/spend-imports">消耗导入</Link> 中广告平台日报的消耗。
        </Typography.Paragraph>
      )}
      {error && <Alert type="error" showIcon style={{ marginTop: 12 }} message={error} />}
    </>
  );
}

/**
 * 渠道成本 (issue 48.2): the cost model in force today, the schedule (future and past rows) and, for an admin, a
 * form to set a model from a day on. One model at a time per channel. A viewer sees the schedule without amounts.
 */
export function ChannelCostsCard({ channelId, isAdmin }: { channelId: number; isAdmin: boolean }) {
  const costs = useChannelCosts(channelId);
  const data = costs.data;

  const columns: TableColumnsType<ChannelCost> = [
    {
      title: '计费方式',
      dataIndex: 'model',
      render: (m: ChannelCostModel) => CHANNEL_COST_MODEL_LABELS[m],
    },
    ...(data?.amountsShown
      ? [{ title: '单价 / 比例', key: 'value', render: (_: unknown, c: ChannelCost) => costText(c) }]
      : []),
    { title: '生效日期', dataIndex: 'effectiveFrom' },
    {
      title: '状态',
      key: 'state',
      render: (_: unknown, c: ChannelCost) => {
        const tag = data ? STATE_TAGS[rowState(c, data)] : null;
        return tag && <Tag color={tag.color}>{tag.text}</Tag>;
      },
    },
    { title: '设置人', dataIndex: 'createdByName', render: (n: string | null) => n ?? '（已删除的账号）' },
    { title: '设置时间', dataIndex: 'createdAt', render: (t: string) => formatShanghai(t) },
  ];

  const inForce = data?.inForce ?? null;
  return (
    <Card title="渠道成本" style={{ marginTop: 16, marginBottom: 16 }} data-testid="channel-costs">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        该渠道带来的流量的成本，自生效日
        00:00（北京时间）起适用，同一时间只有一种计费方式。按点击、按注册和按线索的费用在每天结束后按当日数量记账；收入分成随线索收入记账；按投放消耗的费用来自导入的广告平台日报。
      </Typography.Paragraph>
      {costs.isLoading && <Skeleton active paragraph={{ rows: 3 }} />}
      {costs.isError && (
        <QueryErrorResult title="渠道成本加载失败" error={costs.error} onRetry={() => costs.refetch()} />
      )}
      {data && (
        <>
          {!data.amountsShown && (
            <Alert type="info" showIcon style={{ marginBottom: 12 }} message="只读账号不显示金额" />
          )}
          <section aria-label="今日生效的渠道成本" style={{ marginBottom: 16 }}>
            <Typography.Text type="secondary">今日生效</Typography.Text>
            <div style={{ fontSize: 20, fontWeight: 500 }}>
              {inForce
                ? `${CHANNEL_COST_MODEL_LABELS[inForce.model]}${data.amountsShown ? ` · ${costText(inForce)}` : ''}`
                : '未设置'}
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {inForce
                ? `${CHANNEL_COST_MODEL_BASIS[inForce.model]}；自 ${inForce.effectiveFrom} 起生效`
                : '今日不计成本'}
            </Typography.Text>
          </section>
          <Table<ChannelCost>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={data.list}
            pagination={data.list.length > 10 ? { pageSize: 10 } : false}
            locale={{ emptyText: '尚未设置渠道成本' }}
            scroll={{ x: 'max-content' }}
          />
        </>
      )}
      {isAdmin && <AddCostForm channelId={channelId} />}
    </Card>
  );
}
