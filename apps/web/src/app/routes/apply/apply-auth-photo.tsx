import { useMutation } from '@tanstack/react-query';
import { Button, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { getUploadPolicy } from '@/app/common/api';
import { useDelayedNavigate } from '@/app/common/use-delayed-navigate';
import { PageHeader } from '@/components/page-header';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';

const MAX_FILE_BYTES = 10 * 1024 * 1024;
type Side = 'front' | 'back';
const SIDES: { side: Side; label: string }[] = [
  { side: 'front', label: '身份证人像面' },
  { side: 'back', label: '身份证国徽面' },
];

function CardArt({ side }: { side: Side }) {
  return (
    <svg viewBox="0 0 160 100" aria-hidden="true" focusable="false">
      <rect
        x="4"
        y="4"
        width="152"
        height="92"
        rx="8"
        fill="#fff"
        stroke="var(--app-primary-soft)"
        strokeWidth="2"
      />
      {side === 'front' ? (
        <>
          <rect x="16" y="22" width="60" height="7" rx="3.5" fill="#e8e8e8" />
          <rect x="16" y="38" width="48" height="7" rx="3.5" fill="#e8e8e8" />
          <rect x="16" y="54" width="70" height="7" rx="3.5" fill="#e8e8e8" />
          <rect x="16" y="74" width="90" height="7" rx="3.5" fill="#e8e8e8" />
          <circle cx="122" cy="40" r="14" fill="#e8e8e8" />
          <path d="M100 74c3-12 12-16 22-16s19 4 22 16z" fill="#e8e8e8" />
        </>
      ) : (
        <>
          <circle cx="34" cy="36" r="16" fill="none" stroke="#e8e8e8" strokeWidth="4" />
          <rect x="60" y="26" width="80" height="8" rx="4" fill="#e8e8e8" />
          <rect x="60" y="42" width="56" height="6" rx="3" fill="#e8e8e8" />
          <rect x="16" y="66" width="124" height="6" rx="3" fill="#e8e8e8" />
          <rect x="16" y="80" width="100" height="6" rx="3" fill="#e8e8e8" />
        </>
      )}
      <circle cx="80" cy="50" r="14" fill="var(--app-primary)" opacity="0.9" />
      <path d="M74 50h12M80 44v12" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

/** `/apply_auth_photo`: both sides of the ID card, then the signed upload (GET /api/common/upload/policy). */
export function ApplyAuthPhotoRoute() {
  const [photos, setPhotos] = useState<Partial<Record<Side, { file: File; url: string }>>>({});
  const inputs = useRef<Partial<Record<Side, HTMLInputElement | null>>>({});
  const policy = useMutation({ mutationFn: getUploadPolicy });
  const go = useDelayedNavigate();
  const latest = useRef(photos);
  latest.current = photos;
  useEffect(
    () => () => {
      for (const p of Object.values(latest.current)) if (p) URL.revokeObjectURL(p.url);
    },
    [],
  );

  const pick = (side: Side, file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      Toast.show('图片大小不能超过10MB');
      return;
    }
    setPhotos((prev) => {
      const old = prev[side];
      if (old) URL.revokeObjectURL(old.url);
      return { ...prev, [side]: { file, url: URL.createObjectURL(file) } };
    });
  };

  const submit = () => {
    if (!photos.front || !photos.back) {
      Toast.show('请上传身份证正反面照片');
      return;
    }
    policy.mutate({ image: 'idcard', isPrivate: true }, { onSuccess: () => go('/apply_result') });
  };

  return (
    <main className={styles.page}>
      <PageHeader title="证件上传" fallback="/apply_auth_form" />
      <ApplySteps current={2} />
      <section className={styles.panel}>
        <div className={styles.photos}>
          {SIDES.map(({ side, label }) => (
            <button
              key={side}
              type="button"
              className={styles.photo}
              onClick={() => inputs.current[side]?.click()}
            >
              {photos[side] ? <img src={photos[side].url} alt={label} /> : <CardArt side={side} />}
              <span>{photos[side] ? `重新拍摄${label}` : `拍摄${label}`}</span>
              <input
                ref={(el) => {
                  inputs.current[side] = el;
                }}
                type="file"
                accept="image/*"
                capture="environment"
                hidden
                onChange={(e) => {
                  pick(side, e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </button>
          ))}
        </div>
      </section>
      <section className={styles.panel}>
        <ul className={styles.list}>
          <li>请使用本人有效的二代居民身份证</li>
          <li>拍摄时证件四角完整、文字清晰、无反光</li>
          <li>证件照片加密存储，仅用于身份审核</li>
        </ul>
      </section>
      <div className={styles.actions}>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          loading={policy.isPending}
          onClick={submit}
        >
          提交审核
        </Button>
      </div>
    </main>
  );
}
