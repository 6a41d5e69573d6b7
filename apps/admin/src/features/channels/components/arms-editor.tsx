import { SKINS } from '@lm/shared/channel';
import { Button, Form, InputNumber, Select, Space, Tooltip, Typography } from 'antd';
import { armShares } from '../form';
import { ColourDot } from './colour-dot';

const ARM_COLOURS = ['#1677ff', '#fa8c16', '#52c41a', '#eb2f96', '#722ed1', '#13c2c2', '#faad14', '#f5222d'];
const SKIN_OPTIONS = SKINS.map((s) => ({ value: s, label: `skin${s}` }));

export interface ArmsEditorProps {
  disabled: boolean;
  arms: { skin?: number; weight?: number }[];
  previewSkin: number | null;
  onPreview: (skin: number) => void;
}

/** A/B arms: skin + weight rows (Form.List `skinArms`) and a bar of each arm's share. */
export function ArmsEditor({ disabled, arms, previewSkin, onPreview }: ArmsEditorProps) {
  const shares = armShares(arms.map((a) => ({ weight: a?.weight ?? null })));
  return (
    <>
      <div
        role="img"
        aria-label={`分流比例 ${arms.map((a, i) => `skin${a?.skin ?? '?'} ${shares[i]}%`).join('，')}`}
        style={{
          display: 'flex',
          height: 22,
          borderRadius: 4,
          overflow: 'hidden',
          marginBottom: 12,
          background: '#f0f0f0',
        }}
      >
        {arms.map((a, i) =>
          shares[i] ? (
            <div
              key={`${a?.skin}-${i}`}
              style={{
                width: `${shares[i]}%`,
                background: ARM_COLOURS[i % ARM_COLOURS.length],
                color: '#fff',
                fontSize: 12,
                lineHeight: '22px',
                textAlign: 'center',
                whiteSpace: 'nowrap',
                overflow: 'hidden',
              }}
            >
              skin{a?.skin} {shares[i]}%
            </div>
          ) : null,
        )}
      </div>
      <Form.List name="skinArms">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, i) => (
              <Space key={field.key} align="baseline" wrap>
                <ColourDot colour={ARM_COLOURS[i % ARM_COLOURS.length]} />
                <Form.Item
                  name={[field.name, 'skin']}
                  rules={[{ required: true, message: '请选择皮肤' }]}
                  style={{ marginBottom: 8 }}
                >
                  <Select
                    aria-label={`分流 ${i + 1} 皮肤`}
                    options={SKIN_OPTIONS}
                    style={{ width: 110 }}
                    disabled={disabled}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'weight']}
                  rules={[{ required: true, message: '请填写权重' }]}
                  style={{ marginBottom: 8 }}
                >
                  <InputNumber
                    aria-label={`分流 ${i + 1} 权重`}
                    min={1}
                    max={100}
                    precision={0}
                    addonBefore="权重"
                    style={{ width: 150 }}
                    disabled={disabled}
                  />
                </Form.Item>
                <Typography.Text type="secondary" style={{ width: 56, display: 'inline-block' }}>
                  {shares[i]}%
                </Typography.Text>
                <Button
                  size="small"
                  type={previewSkin === arms[i]?.skin ? 'primary' : 'default'}
                  onClick={() => arms[i]?.skin && onPreview(arms[i]!.skin!)}
                >
                  预览此皮肤
                </Button>
                <Tooltip title={fields.length <= 2 ? '至少保留两个皮肤' : undefined}>
                  <Button
                    size="small"
                    danger
                    disabled={disabled || fields.length <= 2}
                    onClick={() => remove(field.name)}
                  >
                    删除
                  </Button>
                </Tooltip>
              </Space>
            ))}
            <Button
              type="dashed"
              disabled={disabled || fields.length >= 8}
              onClick={() => {
                const used = new Set(arms.map((a) => a?.skin));
                add({ skin: SKINS.find((s) => !used.has(s)) ?? SKINS[0], weight: 50 });
              }}
            >
              添加皮肤
            </Button>
          </>
        )}
      </Form.List>
    </>
  );
}
