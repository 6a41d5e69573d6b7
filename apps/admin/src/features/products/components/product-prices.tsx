import { percentTextToBps, yuanTextToFen } from '@lm/shared/money';
import {
  PRICE_MAX_BPS,
  PRICE_MAX_FEN,
  PRICE_MIN_BPS,
  PRICE_MODEL_BASIS,
  PRICE_MODEL_LABELS,
  PRICE_MODELS,
  type PriceModel,
  priceInFen,
} from '@lm/shared/prices';
import type { ProductPrice, ProductPricesData } from '@lm/shared/schemas/product-prices';
import { formatShanghai, shanghaiDate } from '@lm/shared/time';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Form,
  Input,
  Row,
  Select,
  Skeleton,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { QueryErrorResult } from '@/components/query-error';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useAddProductPrice } from '../api/add-product-price';
import { useProductPrices } from '../api/get-product-prices';
import { priceText } from '../format';

type RowState = 'scheduled' | 'inForce' | 'replaced';
const STATE_TAGS: Record<RowState, { color: string; text: string }> = {
  scheduled: { color: 'blue', text: '待生效' },
  inForce: { color: 'green', text: '生效中' },
  replaced: { color: 'default', text: '已被取代' },
};

function rowState(p: ProductPrice, data: ProductPricesData): RowState {
  if (p.effectiveFrom > data.today) return 'scheduled';
  return data.inForce[p.model]?.id === p.id ? 'inForce' : 'replaced';
}

interface FormValues {
  model: PriceModel;
  amount?: string;
  percent?: string;
  effectiveFrom: Dayjs;
}

/** The amount field of the form: yuan (cpl, cpa) read exactly into fen, or a percentage (cps) into bps. */
function amountRule(model: PriceModel) {
  return {
    validator: async (_: unknown, value: string | undefined) => {
      if (!value?.trim())
        throw new Error(priceInFen(model) ? '请输入每条线索的价格（元）' : '请输入分成比例（%）');
      if (priceInFen(model)) {
        const r = yuanTextToFen(value, { maxFen: PRICE_MAX_FEN });
        if ('problem' in r) throw new Error(r.problem);
        return;
      }
      const r = percentTextToBps(value);
      if ('problem' in r) throw new Error(r.problem);
      if (r.bps < PRICE_MIN_BPS || r.bps > PRICE_MAX_BPS) throw new Error('分成比例应在 0.01%–100% 之间');
    },
  };
}

/** The admin's form: a price of a model from a day (today or later). */
function AddPriceForm({ productId }: { productId: number }) {
  const [form] = Form.useForm<FormValues>();
  const add = useAddProductPrice();
  const model = Form.useWatch('model', form) ?? 'cpl';
  const today = shanghaiDate();
  const error = add.error instanceof ApiError ? add.error.msg : add.error ? '保存失败，请稍后再试' : null;

  const submit = (v: FormValues) => {
    const effectiveFrom = v.effectiveFrom.format('YYYY-MM-DD');
    let value: { amountFen: number } | { bps: number };
    if (priceInFen(v.model)) {
      const r = yuanTextToFen(v.amount ?? '', { maxFen: PRICE_MAX_FEN });
      if ('problem' in r) return;
      value = { amountFen: r.fen };
    } else {
      const r = percentTextToBps(v.percent ?? '');
      if ('problem' in r) return;
      value = { bps: r.bps };
    }
    add
      .mutateAsync({ id: productId, body: { model: v.model, ...value, effectiveFrom } })
      .then(() => {
        notifySuccess(`已添加：${PRICE_MODEL_LABELS[v.model]}自 ${effectiveFrom} 起生效`);
        form.resetFields(['amount', 'percent']);
      })
      .catch(() => undefined);
  };

  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        添加价格
      </Typography.Title>
      <Form<FormValues>
        form={form}
        layout="inline"
        initialValues={{ model: 'cpl', effectiveFrom: dayjs(today) }}
        onFinish={submit}
        onValuesChange={() => add.reset()}
        style={{ rowGap: 8 }}
      >
        <Form.Item name="model" label="计价方式">
          <Select
            style={{ width: 150 }}
            options={PRICE_MODELS.map((m) => ({ value: m, label: PRICE_MODEL_LABELS[m] }))}
          />
        </Form.Item>
        {priceInFen(model) ? (
          <Form.Item
            key="amount"
            name="amount"
            label="每条价格"
            rules={[amountRule(model)]}
            validateTrigger="onBlur"
          >
            <Input style={{ width: 160 }} suffix="元" placeholder="如 35.00" inputMode="decimal" />
          </Form.Item>
        ) : (
          <Form.Item
            key="percent"
            name="percent"
            label="放款金额的"
            rules={[amountRule(model)]}
            validateTrigger="onBlur"
          >
            <Input style={{ width: 140 }} suffix="%" placeholder="如 1.5" inputMode="decimal" />
          </Form.Item>
        )}
        <Form.Item
          name="effectiveFrom"
          label="生效日期"
          rules={[{ required: true, message: '请选择生效日期' }]}
          tooltip="自该日 00:00（北京时间）起适用；只能是今天或以后，已发生的线索不受影响"
        >
          <DatePicker
            allowClear={false}
            disabledDate={(d) => d.format('YYYY-MM-DD') < today}
            style={{ width: 140 }}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending}>
            添加价格
          </Button>
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon style={{ marginTop: 12 }} message={error} />}
    </>
  );
}

/**
 * 线索价格 (issue 48.1): per model the price in force today, the schedule (future and past prices) and, for an
 * admin, a form to add a price from a day on. A viewer sees the schedule without amounts.
 */
export function ProductPrices({ productId, isAdmin }: { productId: number; isAdmin: boolean }) {
  const prices = useProductPrices(productId);
  const data = prices.data;

  const columns: TableColumnsType<ProductPrice> = [
    { title: '计价方式', dataIndex: 'model', render: (m: PriceModel) => PRICE_MODEL_LABELS[m] },
    ...(data?.amountsShown
      ? [{ title: '价格', key: 'price', render: (_: unknown, p: ProductPrice) => priceText(p) }]
      : []),
    { title: '生效日期', dataIndex: 'effectiveFrom' },
    {
      title: '状态',
      key: 'state',
      render: (_: unknown, p: ProductPrice) => {
        const tag = data ? STATE_TAGS[rowState(p, data)] : null;
        return tag && <Tag color={tag.color}>{tag.text}</Tag>;
      },
    },
    { title: '添加人', dataIndex: 'createdByName', render: (n: string | null) => n ?? '（已删除的账号）' },
    { title: '添加时间', dataIndex: 'createdAt', render: (t: string) => formatShanghai(t) },
  ];

  return (
    <Card title="线索价格" style={{ marginBottom: 16 }}>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        机构为每条线索支付的价格，自生效日
        00:00（北京时间）起适用；线索按发生时有效的价格计算，改价不影响已经发生的线索。下方表单中的「排序单价」只用于产品排序。
      </Typography.Paragraph>
      {prices.isLoading && <Skeleton active paragraph={{ rows: 3 }} />}
      {prices.isError && (
        <QueryErrorResult title="线索价格加载失败" error={prices.error} onRetry={() => prices.refetch()} />
      )}
      {data && (
        <>
          {!data.amountsShown && (
            <Alert type="info" showIcon style={{ marginBottom: 12 }} message="只读账号不显示金额" />
          )}
          <Row gutter={[16, 12]} style={{ marginBottom: 16 }}>
            {PRICE_MODELS.map((m) => {
              const p = data.inForce[m];
              return (
                <Col xs={24} md={8} key={m}>
                  <section aria-label={`今日生效的${PRICE_MODEL_LABELS[m]}价格`}>
                    <Typography.Text type="secondary">
                      {PRICE_MODEL_LABELS[m]} · {PRICE_MODEL_BASIS[m]}
                    </Typography.Text>
                    <div style={{ fontSize: 20, fontWeight: 500 }}>
                      {p ? (data.amountsShown ? priceText(p) : '已设置') : '未设置'}
                    </div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {p ? `自 ${p.effectiveFrom} 起生效` : '今日不计费'}
                    </Typography.Text>
                  </section>
                </Col>
              );
            })}
          </Row>
          <Table<ProductPrice>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={data.list}
            pagination={data.list.length > 10 ? { pageSize: 10 } : false}
            locale={{ emptyText: '尚未设置线索价格' }}
            scroll={{ x: 'max-content' }}
          />
        </>
      )}
      {isAdmin && <AddPriceForm productId={productId} />}
    </Card>
  );
}
