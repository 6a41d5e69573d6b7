import { Button, Modal } from 'antd';
import { notifySuccess } from '@/lib/notify';
import { useCloseMonth } from '../api/close-month';

/** 关账 (admin): after a confirmation that says what it means, freezes a month that has ended. */
export function CloseMonthButton({ month }: { month: string }) {
  const close = useCloseMonth();
  const confirm = () =>
    Modal.confirm({
      title: `确认关账 ${month}？`,
      content: (
        <>
          <p>关账后，{month} 的对账单冻结，金额不再变化，且不能撤销。</p>
          <p>
            之后才到达的 {month}{' '}
            的事件（如迟到的放款、退回）将记入下一个未关账的月份，并在该月的对账单中标为「跨月补记」。
          </p>
        </>
      ),
      okText: '确认关账',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => close.mutateAsync(month).then(() => notifySuccess(`${month} 已关账`)),
    });
  return (
    <Button danger onClick={confirm} loading={close.isPending}>
      关账
    </Button>
  );
}
