import { Alert, Button, Card, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { type PreviewDraft, usePreviewToken } from '../api/preview-channel';

/** Debounces a value (the iframe reloads once the operator pauses). */
function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return current;
}

export const PREVIEW_WIDTH = 375;
export const PREVIEW_HEIGHT = 740;

/**
 * The H5 landing as the phone will show it, rendered from the unsaved form: the draft is signed by the
 * server (30 minutes) and the framed H5 asks h5Config with that token. Nothing is saved or counted.
 */
export function ChannelPreview({ draft }: { draft: PreviewDraft }) {
  const key = JSON.stringify(draft);
  const debounced = useDebounced(key, 600);
  const token = usePreviewToken(JSON.parse(debounced) as PreviewDraft);
  const [loaded, setLoaded] = useState<string | null>(null);
  const src = token.data ? `/?previewToken=${encodeURIComponent(token.data.token)}` : null;
  const stale = key !== debounced || token.isFetching;

  return (
    <Card
      size="small"
      title="实时预览"
      extra={
        <Space>
          {stale && <Spin size="small" />}
          {src && (
            <Button size="small" href={src} target="_blank" rel="noopener">
              新窗口打开
            </Button>
          )}
        </Space>
      }
      styles={{ body: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8 } }}
    >
      {token.isError && (
        <Alert
          type="warning"
          showIcon
          style={{ width: '100%' }}
          message="预览暂不可用"
          description={`${token.error.message}（修正表单后自动刷新，或点“重试”）`}
          action={
            <Button size="small" loading={token.isFetching} onClick={() => void token.refetch()}>
              重试
            </Button>
          }
        />
      )}
      <div
        style={{
          width: PREVIEW_WIDTH + 16,
          height: PREVIEW_HEIGHT + 16,
          padding: 8,
          borderRadius: 28,
          background: '#1f1f1f',
          position: 'relative',
        }}
      >
        {src ? (
          <iframe
            key={src}
            title="渠道H5预览"
            src={src}
            width={PREVIEW_WIDTH}
            height={PREVIEW_HEIGHT}
            onLoad={() => setLoaded(src)}
            style={{ border: 0, borderRadius: 20, background: '#fff', display: 'block' }}
          />
        ) : (
          <div
            style={{
              width: PREVIEW_WIDTH,
              height: PREVIEW_HEIGHT,
              borderRadius: 20,
              background: '#fff',
              display: 'grid',
              placeItems: 'center',
            }}
          >
            {token.isError ? (
              <Typography.Text type="secondary">暂无预览</Typography.Text>
            ) : (
              <Spin tip="正在生成预览" />
            )}
          </div>
        )}
        {src && loaded !== src && (
          <div
            style={{
              position: 'absolute',
              inset: 8,
              display: 'grid',
              placeItems: 'center',
              pointerEvents: 'none',
            }}
          >
            <Spin />
          </div>
        )}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        375×740，按未保存的表单显示；预览不计点击、不上报埋点。
      </Typography.Text>
    </Card>
  );
}
