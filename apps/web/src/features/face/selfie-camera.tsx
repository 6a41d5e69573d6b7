import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MSG } from '@lm/shared/upload';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useReducer, useRef, useState } from 'react';
import { PrimaryButton } from '@/components/primary-button';
import { toast } from '@/lib/toast';
import {
  CAMERA_FAILURE_MESSAGES,
  cameraFailureOf,
  captureFrame,
  normalizePhoto,
  openFrontCamera,
  SELFIE_MAX_SIDE,
  stopStream,
} from './capture';
import styles from './selfie-camera.module.css';
import {
  initialSelfieState,
  type SelfieEvent,
  type SelfieState,
  selfieReducer,
  selfieView,
  wantsStream,
} from './selfie-machine';

interface Photo {
  file: File;
  /** Object URL for the preview (revoked when the photo changes or the step goes). */
  url: string;
}

const reduce: (state: SelfieState<Photo>, event: SelfieEvent<Photo>) => SelfieState<Photo> = selfieReducer;

/** Our own face-frame drawing, shown while there is neither a preview nor a photo. */
export function FaceFrame({ className }: { className?: string }) {
  const line = {
    fill: 'none',
    stroke: 'var(--app-primary)',
    strokeWidth: 3,
    strokeLinecap: 'round',
  } as const;
  return (
    <svg viewBox="0 0 120 120" className={className} aria-hidden="true" focusable="false">
      <path
        d="M14 34V20a6 6 0 0 1 6-6h14M86 14h14a6 6 0 0 1 6 6v14M106 86v14a6 6 0 0 1-6 6H86M34 106H20a6 6 0 0 1-6-6V86"
        style={line}
      />
      <ellipse
        cx="60"
        cy="56"
        rx="24"
        ry="30"
        fill="var(--app-primary-light)"
        style={{ ...line, strokeWidth: 2 }}
      />
      <path d="M50 52h.01M70 52h.01M52 68c5 4 11 4 16 0" style={line} />
    </svg>
  );
}

interface SelfieCameraProps {
  /** Uploads the photo and moves on; rejects when the upload failed (the uploader has said why). */
  onSubmit: (photo: File) => Promise<void>;
}

/**
 * The selfie: the front camera's live preview (mirrored, like a mirror) and a capture button; the
 * file input (`capture="user"`) when the camera is refused or missing, and as a second way. The
 * camera runs only while the preview is on screen: it stops after the capture, when the page is
 * hidden, and when the step unmounts.
 */
export function SelfieCamera({ onSubmit }: SelfieCameraProps) {
  const [state, dispatch] = useReducer(reduce, initialSelfieState<Photo>());
  const [videoReady, setVideoReady] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const pausedByHiding = useRef(false);
  const view = selfieView(state);

  // The camera opens when the step shows.
  useEffect(() => dispatch({ type: 'start' }), []);

  // Open the camera while it is wanted; a stream that arrives too late is stopped at once.
  useEffect(() => {
    if (state.camera !== 'starting') return;
    let wanted = true;
    openFrontCamera().then(
      (s) => {
        if (!wanted) return stopStream(s);
        stream.current = s;
        dispatch({ type: 'started' });
      },
      (error: unknown) => {
        if (wanted) dispatch({ type: 'failed', failure: cameraFailureOf(error) });
      },
    );
    return () => {
      wanted = false;
    };
  }, [state.camera]);

  // The stream runs only while the camera is live (or opening).
  const keepStream = wantsStream(state);
  useEffect(() => {
    if (keepStream) return;
    stopStream(stream.current);
    stream.current = null;
    setVideoReady(false);
  }, [keepStream]);

  // Leaving the page stops the camera.
  useEffect(
    () => () => {
      stopStream(stream.current);
      stream.current = null;
    },
    [],
  );

  // The live stream into the preview.
  useEffect(() => {
    const el = video.current;
    if (state.camera !== 'live' || !el || !stream.current) return;
    el.srcObject = stream.current;
    void el.play().catch(() => {
      // Autoplay of a muted inline video is allowed; a refusal leaves the first frame.
    });
    return () => {
      el.srcObject = null;
    };
  }, [state.camera]);

  // Hidden page (another app, the lock screen): the camera stops, and opens again on return.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        pausedByHiding.current = true;
        dispatch({ type: 'stop' });
      } else if (pausedByHiding.current) {
        pausedByHiding.current = false;
        dispatch({ type: 'start' });
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);

  // The preview's object URL lives as long as its photo.
  useEffect(() => {
    const url = state.photo?.url;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [state.photo]);

  const capture = async () => {
    const el = video.current;
    const frame = el ? await captureFrame(el) : null;
    if (!frame) {
      toast.show('摄像头尚未就绪，请稍候');
      return;
    }
    const file = new File([frame.blob], 'selfie.jpg', { type: 'image/jpeg' });
    dispatch({ type: 'captured', photo: { file, url: URL.createObjectURL(file) } });
  };

  const pick = async (file: File | undefined) => {
    if (!file) return;
    // Spec §5 / §8: over 10MB is refused before anything is sent.
    if (file.size > UPLOAD_MAX_BYTES) {
      toast.show(UPLOAD_TOO_LARGE_MSG);
      return;
    }
    const photo = await normalizePhoto(file, SELFIE_MAX_SIDE);
    dispatch({ type: 'picked', photo: { file: photo, url: URL.createObjectURL(photo) } });
  };

  const submit = async () => {
    if (!state.photo) return;
    dispatch({ type: 'upload' });
    try {
      await onSubmit(state.photo.file);
    } catch {
      dispatch({ type: 'uploadFailed' });
    }
  };

  const primary = {
    start: { label: '开启摄像头', onClick: () => dispatch({ type: 'start' }) },
    capture: { label: '拍照', onClick: () => void capture() },
    pick: { label: '拍照上传', onClick: () => fileInput.current?.click() },
    submit: { label: '提交认证', onClick: () => void submit() },
  }[view.primary];

  const mirrored = state.source !== 'file';
  return (
    <div className={styles.camera}>
      <div className={styles.stage} data-camera={state.camera}>
        {view.showVideo && (
          <video
            ref={video}
            className={styles.video}
            playsInline
            muted
            autoPlay
            aria-label="摄像头实时画面"
            onLoadedData={() => setVideoReady(true)}
          />
        )}
        {state.photo && (
          <img
            src={state.photo.url}
            alt="已拍摄的人脸照片"
            className={mirrored ? `${styles.photo} ${styles.mirrored}` : styles.photo}
          />
        )}
        {!view.showVideo && !state.photo && <FaceFrame className={styles.placeholder} />}
        {(view.showVideo || state.photo) && <div className={styles.guide} aria-hidden="true" />}
        {view.showVideo && !videoReady && <p className={styles.stageNote}>正在打开摄像头…</p>}
      </div>

      {state.camera === 'blocked' && state.failure && !state.photo && (
        <p className={styles.notice} role="alert">
          {CAMERA_FAILURE_MESSAGES[state.failure]}
        </p>
      )}

      <div className={styles.actions}>
        <PrimaryButton
          loading={view.busy || (view.primary === 'capture' && !videoReady)}
          disabled={view.primary === 'capture' && !videoReady}
          onClick={primary.onClick}
        >
          {primary.label}
        </PrimaryButton>
        {view.canRetake && (
          <Button
            block
            fill="outline"
            color="primary"
            shape="rounded"
            onClick={() => dispatch({ type: 'retake' })}
          >
            重新拍摄
          </Button>
        )}
        {view.canRetryCamera && (
          <Button block fill="none" color="primary" size="small" onClick={() => dispatch({ type: 'start' })}>
            重试开启摄像头
          </Button>
        )}
        {view.offerFile && (
          <Button
            block
            fill="none"
            size="small"
            className={styles.secondary}
            onClick={() => fileInput.current?.click()}
          >
            无法使用摄像头？拍照上传
          </Button>
        )}
      </div>
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        capture="user"
        hidden
        onChange={(e) => {
          void pick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </div>
  );
}
