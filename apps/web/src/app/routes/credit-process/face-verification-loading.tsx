import { SPECIAL_ROUTES } from '@lm/shared/channel';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useReducer, useState } from 'react';
import { RequireLogin } from '@/app/flow/require-login';
import { decideCreditFlow, followDecision, navigateAfterDelay } from '@/app/sign-in/post-login';
import feedback from '@/components/feedback.module.css';
import { ResultView } from '@/components/result-view';
import { verifyFaceOnce } from '@/features/face/api/verify-face';
import {
  clearFaceFailure,
  clearPendingFace,
  confirmedIdentity,
  forgetIdentity,
  readPendingFace,
  saveFaceFailure,
} from '@/features/face/handoff';
import { forgetIdentityDraft } from '@/features/face/identity-draft';
import {
  type HandoffChange,
  handoffAfter,
  initialLoadingState,
  type LoadingState,
  loadingReducer,
  outcomeOfAnswer,
  outcomeOfError,
} from '@/features/face/outcome';
import { FaceFrame } from '@/features/face/selfie-camera';
import { FACE_FAILED_TOAST } from '@/features/flow/decide';
import { getStoredUid, getToken } from '@/lib/session';
import { sessionStore } from '@/lib/storage';
import formStyles from '@/styles/forms.module.css';
import styles from './credit-process.module.css';

function applyHandoff(change: HandoffChange) {
  if (change.clearPending) clearPendingFace(sessionStore);
  if (change.failure === null) return;
  if (change.failure.length) saveFaceFailure(sessionStore, { reasons: change.failure });
  else clearFaceFailure(sessionStore);
}

type StepState = 'done' | 'active' | 'todo';

function Waiting({
  title,
  subtitle,
  steps,
}: {
  title: string;
  subtitle: string;
  steps: [string, StepState][];
}) {
  return (
    <>
      <h1 className={formStyles.progressTitle}>{title}</h1>
      <p className={formStyles.progressSubtitle}>{subtitle}</p>
      <div className={styles.scan} role="progressbar" aria-label={title} aria-busy="true">
        <div className={styles.scanArc} />
        <FaceFrame className={styles.scanFace} />
      </div>
      <ol className={feedback.checklist}>
        {steps.map(([label, state]) => (
          <li key={label} data-state={state}>
            <span className={feedback.checkDot} aria-hidden="true" />
            {label}
            <span className={feedback.srOnly}>
              {state === 'done' ? '（已完成）' : state === 'active' ? '（进行中）' : ''}
            </span>
          </li>
        ))}
      </ol>
      <p className={formStyles.progressHint}>请勿关闭或刷新页面</p>
    </>
  );
}

function View({
  state,
  onRetry,
  onRetake,
}: {
  state: LoadingState;
  onRetry: () => void;
  onRetake: () => void;
}) {
  switch (state.phase) {
    case 'verifying':
      return (
        <Waiting
          title="人脸核验中"
          subtitle="正在检测您的照片，通常只需几秒"
          steps={[
            ['照片已上传', 'done'],
            ['人脸检测', 'active'],
            ['核验结果', 'todo'],
          ]}
        />
      );
    case 'deciding':
      return (
        <Waiting
          title="正在查询认证结果"
          subtitle="请稍候"
          steps={[
            ['查询认证状态', 'active'],
            ['进入下一步', 'todo'],
          ]}
        />
      );
    case 'passed':
      return (
        <ResultView status="success" title="认证通过" description="正在进入下一步…">
          {state.note && <p className={styles.resultNote}>{state.note}</p>}
        </ResultView>
      );
    case 'failed':
      return (
        <ResultView status="error" title="认证失败" description="即将返回重新认证">
          <ul className={styles.reasons}>
            {state.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </ResultView>
      );
    case 'retry':
      return (
        <ResultView
          status="waiting"
          title="暂时无法完成核验"
          description={state.message}
          actions={
            <>
              <Button block color="primary" shape="rounded" size="large" onClick={onRetry}>
                重试
              </Button>
              <Button block fill="none" onClick={onRetake}>
                重新拍摄
              </Button>
            </>
          }
        />
      );
    case 'stuck':
      return (
        <ResultView
          status="error"
          title="无法核验此照片"
          description={state.message}
          actions={
            <Button block color="primary" shape="rounded" size="large" onClick={onRetake}>
              重新拍摄
            </Button>
          }
        />
      );
  }
}

function FaceVerificationLoading() {
  const [pending] = useState(() => readPendingFace(sessionStore));
  const [state, dispatch] = useReducer(loadingReducer, pending !== null, initialLoadingState);
  // The check of the uploaded selfie (again after "重试").
  useEffect(() => {
    if (state.phase !== 'verifying' || !pending) return;
    let current = true;
    const who = confirmedIdentity(getToken());
    verifyFaceOnce({
      image: pending.image,
      ...(who ? { realName: who.realName, identity: who.identity } : {}),
    })
      .then(outcomeOfAnswer, outcomeOfError)
      .then((outcome) => {
        // Recorded even when the page went: a decided selfie is never sent again by a reload.
        applyHandoff(handoffAfter(outcome));
        if (current) dispatch({ type: 'outcome', outcome });
      });
    return () => {
      current = false;
    };
  }, [state.phase, pending]);

  // What follows a decision.
  const phase = state.phase;
  useEffect(() => {
    let active = true;
    let stop: (() => void) | null = null;
    const follow = () =>
      void decideCreditFlow().then((d) => {
        if (active) stop = followDecision({ ...d, replace: true });
      });
    if (phase === 'passed') {
      forgetIdentity();
      forgetIdentityDraft(sessionStore, getStoredUid());
      // Spec §4 alternative ordering: normally the credit-information wizard next.
      follow();
    } else if (phase === 'deciding') {
      // No selfie waiting: the stored face status decides ('认证失败' and back when not passed).
      follow();
    } else if (phase === 'failed') {
      // Spec §8: '认证失败' for 2 s, then back to identity verification (the reasons shown there).
      stop = followDecision({
        kind: 'navigate',
        step: 'face failed',
        path: SPECIAL_ROUTES.identityVerification,
        replace: true,
        toast: { ...FACE_FAILED_TOAST },
        delayMs: FACE_FAILED_TOAST.duration,
      });
    }
    return () => {
      active = false;
      stop?.();
    };
  }, [phase]);

  const retake = () => {
    navigateAfterDelay({ path: SPECIAL_ROUTES.identityVerification, replace: true });
  };

  return (
    <main className={formStyles.progressPage}>
      <View state={state} onRetry={() => dispatch({ type: 'retry' })} onRetake={retake} />
    </main>
  );
}

/**
 * `/credit-process/face-verification-loading`: the uploaded selfie is checked here (POST
 * /api/app/userInfo/faceVerify). Passed (face status 2) → the credit flow continues (spec §4
 * alternative ordering, normally the credit-information wizard); failed → '认证失败' for 2 s and back
 * to identity verification, which shows the reasons; the check could not run (503, network) → retry
 * with the same photo. Without a selfie waiting (reload after the decision, or the login decision for
 * a person already passed) the stored face status decides.
 */
export function FaceVerificationLoadingRoute() {
  return (
    <RequireLogin>
      <FaceVerificationLoading />
    </RequireLogin>
  );
}
