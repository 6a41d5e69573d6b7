import { maskIdCard, maskName } from '@lm/shared/mask';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MSG } from '@lm/shared/upload';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef, useState } from 'react';
import { RequireLogin } from '@/app/flow/require-login';
import { PageHeader } from '@/components/page-header';
import { fetchShownDraft } from '@/features/application-form/api/get-shown-draft';
import { type OcrIdCardData, readIdCard } from '@/features/face/api/read-id-card';
import { ID_CARD_MAX_SIDE, normalizePhoto } from '@/features/face/capture';
import { useDelayedNavigate } from '@/hooks/use-delayed-navigate';
import { toast } from '@/lib/toast';
import { uploadFile } from '@/lib/upload';
import styles from './apply.module.css';
import { ApplySteps } from './apply-steps';
import { matchesDraft } from './rules';

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

interface Photo {
  /** Local preview (object URL). */
  preview: string;
  /** The uploaded object's URL (private idcard folder). */
  url: string;
}

function PhotoStep() {
  const [photos, setPhotos] = useState<Partial<Record<Side, Photo>>>({});
  const [busy, setBusy] = useState<Side | null>(null);
  const [ocr, setOcr] = useState<OcrIdCardData | null>(null);
  const [draftIdentity, setDraftIdentity] = useState<string | undefined>();
  const inputs = useRef<Partial<Record<Side, HTMLInputElement | null>>>({});
  const go = useDelayedNavigate();
  const latest = useRef(photos);
  latest.current = photos;
  useEffect(
    () => () => {
      for (const p of Object.values(latest.current)) if (p) URL.revokeObjectURL(p.preview);
    },
    [],
  );
  useEffect(() => {
    const controller = new AbortController();
    fetchShownDraft(controller.signal)
      .then((d) => setDraftIdentity(d.identity))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);

  const pick = async (side: Side, file: File | undefined) => {
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      toast.show(UPLOAD_TOO_LARGE_MSG);
      return;
    }
    setBusy(side);
    toast.show({
      icon: 'loading',
      content: side === 'front' ? '正在上传并识别…' : '正在上传…',
      duration: 0,
      maskClickable: false,
    });
    try {
      const photo = await normalizePhoto(file, ID_CARD_MAX_SIDE);
      const url = await uploadFile(photo, 'idcard', { isPrivate: true });
      if (side === 'front') setOcr(await readIdCard(url));
      toast.clear();
      setPhotos((prev) => {
        const old = prev[side];
        if (old) URL.revokeObjectURL(old.preview);
        return { ...prev, [side]: { preview: URL.createObjectURL(photo), url } };
      });
    } catch {
      // The upload or the OCR call has shown why (its toast replaced the loading one).
    } finally {
      setBusy(null);
    }
  };

  const match = matchesDraft(ocr?.identity ?? null, draftIdentity);
  const submit = () => {
    if (!photos.front || !photos.back) {
      toast.show('请上传身份证正反面照片');
      return;
    }
    if (match === false) {
      toast.show({ content: '证件与填写的身份证号不一致，请上传本人身份证', duration: 3000 });
      return;
    }
    go('/apply_result');
  };

  return (
    <>
      <section className={styles.panel}>
        <div className={styles.photos}>
          {SIDES.map(({ side, label }) => (
            <button
              key={side}
              type="button"
              className={styles.photo}
              disabled={busy !== null}
              onClick={() => inputs.current[side]?.click()}
            >
              {photos[side] ? <img src={photos[side].preview} alt={label} /> : <CardArt side={side} />}
              <span>{busy === side ? '上传中…' : photos[side] ? `重新拍摄${label}` : `拍摄${label}`}</span>
              <input
                ref={(el) => {
                  inputs.current[side] = el;
                }}
                type="file"
                accept="image/*"
                capture="environment"
                hidden
                onChange={(e) => {
                  void pick(side, e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
            </button>
          ))}
        </div>
        {ocr && (
          <output className={ocr.valid && match !== false ? styles.ocr : `${styles.ocr} ${styles.ocrWarn}`}>
            {ocr.realName && ocr.identity
              ? `识别结果：${maskName(ocr.realName)}，${maskIdCard(ocr.identity)}。`
              : '未能识别证件信息，请在光线充足处重新拍摄。'}
            {match === false && '与您填写的身份证号不一致。'}
            {ocr.note}
          </output>
        )}
      </section>
      <section className={styles.panel}>
        <ul className={styles.list}>
          <li>请使用本人有效的二代居民身份证</li>
          <li>拍摄时证件四角完整、文字清晰、无反光</li>
          <li>证件照片加密存储，仅用于身份审核</li>
        </ul>
      </section>
      <div className={styles.actions}>
        <Button block color="primary" shape="rounded" size="large" disabled={busy !== null} onClick={submit}>
          提交审核
        </Button>
      </div>
    </>
  );
}

/**
 * `/apply_auth_photo`: both sides of the ID card, uploaded to the private idcard folder (signed
 * policy); the front is read by OCR (POST /api/app/userInfo/getOcrResultByIDCardPic) and compared with
 * the ID number of the draft.
 */
export function ApplyAuthPhotoRoute() {
  return (
    <main className={styles.page}>
      <PageHeader title="证件上传" fallback="/apply_auth_form" />
      <ApplySteps current={2} />
      <RequireLogin>
        <PhotoStep />
      </RequireLogin>
    </main>
  );
}
