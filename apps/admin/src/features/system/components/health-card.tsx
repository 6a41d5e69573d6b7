import { Alert, Badge, Button, Card, Descriptions, Skeleton } from 'antd';
import { ApiError } from '@/lib/api-client';
import { type Health, useHealth } from '../api/get-health';

const HEALTHY = new Set(['ok', 'up', 'healthy', 'connected', 'true']);

function isHealthy(value: string | boolean): boolean {
  return HEALTHY.has(String(value).toLowerCase());
}

function StatusBadge({ value }: { value: string | boolean }) {
  if (value === 'not configured') return <Badge status="default" text="未配置（使用数据库计数）" />;
  return <Badge status={isHealthy(value) ? 'success' : 'error'} text={String(value)} />;
}

function formatUptime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  if (days > 0) return `${days}天${hours}小时${minutes}分钟`;
  if (hours > 0) return `${hours}小时${minutes}分钟`;
  if (minutes > 0) return `${minutes}分钟${s % 60}秒`;
  return `${s}秒`;
}

/** GET /api/user/health, refreshed every 30 s. */
export function HealthCard() {
  const health = useHealth();
  // A degraded server answers with an error code but still describes itself in `data`.
  const errorData = health.error instanceof ApiError ? (health.error.data as Health | null) : null;
  const data = health.data ?? (errorData && typeof errorData.status === 'string' ? errorData : null);
  return (
    <Card
      title="服务状态"
      extra={
        <Button size="small" loading={health.isFetching} onClick={() => void health.refetch()}>
          刷新
        </Button>
      }
    >
      {health.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : data ? (
        <Descriptions column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label="整体状态">
            <StatusBadge value={data.status} />
          </Descriptions.Item>
          <Descriptions.Item label="运行时长">{formatUptime(data.uptimeSeconds)}</Descriptions.Item>
          <Descriptions.Item label="数据库">
            <StatusBadge value={data.db} />
          </Descriptions.Item>
          <Descriptions.Item label="Redis">
            <StatusBadge value={data.redis} />
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Alert type="error" showIcon message="服务状态获取失败" description={health.error?.message} />
      )}
    </Card>
  );
}
