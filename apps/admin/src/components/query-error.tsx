import { Alert, Button, Result } from 'antd';
import type { CSSProperties } from 'react';

export interface QueryErrorProps {
  /** What failed, e.g. 「渠道列表加载失败」. */
  message: string;
  /** The error, shown below the message when given. */
  error?: Error | null;
  /** Shows a 重试 button when given. */
  onRetry?: () => void;
  style?: CSSProperties;
}

/** The error banner of a list or card whose query failed, with an optional 重试 button. */
export function QueryError({ message, error, onRetry, style }: QueryErrorProps) {
  return (
    <Alert
      type="error"
      showIcon
      message={message}
      description={error ? error.message : undefined}
      action={onRetry ? <Button onClick={onRetry}>重试</Button> : undefined}
      style={style}
    />
  );
}

export interface QueryErrorResultProps {
  title: string;
  error: Error;
  onRetry: () => void;
}

/** A whole page whose record failed to load: the error and a 重试 button. */
export function QueryErrorResult({ title, error, onRetry }: QueryErrorResultProps) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={error.message}
      extra={<Button onClick={onRetry}>重试</Button>}
    />
  );
}
