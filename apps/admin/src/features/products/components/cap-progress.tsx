import { Progress, Space, Typography } from 'antd';
import { capUsage } from '../format';

/** A live counter against its cap: "7 / 500" with a bar (red when full), or "不限". */
export function CapProgress({ label, count, cap }: { label?: string; count: number; cap: number | null }) {
  const usage = capUsage(count, cap);
  return (
    <Space direction="vertical" size={0} style={{ width: '100%', minWidth: 110 }}>
      <Typography.Text style={{ fontSize: 12 }}>
        {label ? `${label} ` : ''}
        {usage.text}
      </Typography.Text>
      {usage.percent !== null && (
        <Progress
          percent={usage.percent}
          size="small"
          showInfo={false}
          status={usage.percent >= 100 ? 'exception' : 'normal'}
          aria-label={`${label ?? ''}已用 ${usage.percent}%`}
        />
      )}
    </Space>
  );
}
