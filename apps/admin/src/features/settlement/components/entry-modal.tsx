import { PARTY_TYPE_LABELS, type PartyType } from '@lm/shared/ledger';
import { yuanTextToFen } from '@lm/shared/money';
import { SETTLEMENT_MAX_FEN, type StatementsData } from '@lm/shared/schemas/settlement';
import { Alert, AutoComplete, Form, Input, Modal, Radio, Typography } from 'antd';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useAddAdjustment } from '../api/add-adjustment';
import { useAddPayout } from '../api/add-payout';
import { yuanText } from '../format';

export type EntryModalKind = 'adjustment' | 'payout';

interface FormValues {
  partyType: PartyType;
  partyCode: string;
  direction: 'plus' | 'minus';
  amount: string;
  text: string;
}

const TITLES: Record<EntryModalKind, string> = { adjustment: '手工调整', payout: '登记付款' };

/**
 * 手工调整 / 登记付款 (admin). An adjustment is a signed amount with its reason, booked in the month shown when
 * it is open (else the current month); a payout is money that changed hands — a lender's payment to us or ours
 * to a channel — booked today as a reduction of the balance.
 */
export function EntryModal({
  kind,
  data,
  onClose,
}: {
  kind: EntryModalKind | null;
  data: StatementsData;
  onClose: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const adjust = useAddAdjustment();
  const pay = useAddPayout();
  const partyType = Form.useWatch('partyType', form) ?? 'lender';
  const pending = adjust.isPending || pay.isPending;
  const failure = adjust.error ?? pay.error;
  const error = failure instanceof ApiError ? failure.msg : failure ? '保存失败，请稍后再试' : null;
  const month = data.status === 'open' ? data.month : data.currentMonth;
  const options = data.statements
    .filter((s) => s.party.type === partyType)
    .map((s) => ({ value: s.party.code, label: `${s.party.name}（${s.party.code}）` }));

  const reset = () => {
    form.resetFields();
    adjust.reset();
    pay.reset();
  };

  const submit = async () => {
    const v = await form.validateFields();
    const r = yuanTextToFen(v.amount, { maxFen: SETTLEMENT_MAX_FEN });
    if ('problem' in r) return;
    const booked =
      kind === 'adjustment'
        ? await adjust.mutateAsync({
            partyType: v.partyType,
            partyCode: v.partyCode.trim(),
            amountFen: v.direction === 'minus' ? -r.fen : r.fen,
            reason: v.text,
            month,
          })
        : await pay.mutateAsync({
            partyType: v.partyType,
            partyCode: v.partyCode.trim(),
            amountFen: r.fen,
            note: v.text,
          });
    notifySuccess(`已记入 ${booked.month}：${booked.party.name} ${yuanText(booked.amountFen)}`);
    reset();
    onClose();
  };

  return (
    <Modal
      title={kind ? TITLES[kind] : ''}
      open={kind !== null}
      okText="保存"
      cancelText="取消"
      confirmLoading={pending}
      onOk={() => submit().catch(() => undefined)}
      onCancel={() => {
        reset();
        onClose();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {kind === 'adjustment'
          ? `调整记入 ${month}（未关账）。机构：增加 = 机构多付给我们；渠道：增加 = 我们多付给渠道。`
          : '付款记入本月，冲减余额：机构付给我们的款项，或我们付给渠道的款项。'}
      </Typography.Paragraph>
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{ partyType: 'lender', direction: 'plus' }}
        onValuesChange={() => {
          adjust.reset();
          pay.reset();
        }}
      >
        <Form.Item name="partyType" label="对象">
          <Radio.Group
            options={(['lender', 'channel'] as const).map((t) => ({ value: t, label: PARTY_TYPE_LABELS[t] }))}
            optionType="button"
          />
        </Form.Item>
        <Form.Item
          name="partyCode"
          label={partyType === 'lender' ? '机构编码' : '渠道编码'}
          rules={[{ required: true, whitespace: true, message: '请选择或输入编码' }]}
        >
          <AutoComplete options={options} placeholder="选择本月对账单中的对象，或输入编码" />
        </Form.Item>
        {kind === 'adjustment' && (
          <Form.Item name="direction" label="方向">
            <Radio.Group
              options={[
                { value: 'plus', label: '增加余额' },
                { value: 'minus', label: '减少余额' },
              ]}
            />
          </Form.Item>
        )}
        <Form.Item
          name="amount"
          label="金额"
          rules={[
            {
              validator: async (_: unknown, value: string | undefined) => {
                if (!value?.trim()) throw new Error('请输入金额（元）');
                const r = yuanTextToFen(value, { maxFen: SETTLEMENT_MAX_FEN });
                if ('problem' in r) throw new Error(r.problem);
                if (r.fen === 0) throw new Error('金额应大于 0');
              },
            },
          ]}
        >
          <Input suffix="元" placeholder="如 1200.00" inputMode="decimal" />
        </Form.Item>
        <Form.Item
          name="text"
          label={kind === 'adjustment' ? '调整原因' : '付款说明'}
          rules={[
            { required: true, whitespace: true, message: '请填写说明' },
            { min: 2, max: 200, message: '2–200 个字' },
          ]}
        >
          <Input.TextArea rows={2} maxLength={200} showCount />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}
