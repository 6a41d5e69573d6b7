import { Button } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { ProgressPage } from '@/app/common/progress-page';

/**
 * `/credit-process/face-verification-loading`: while the face check runs. The decision comes from the
 * server (issue 5); this page never claims a pass by itself — when the wait ends it offers to check
 * again or to redo the verification.
 */
export function FaceVerificationLoadingRoute() {
  const navigate = useNavigate();
  return (
    <ProgressPage
      title="人脸核验中"
      subtitle="正在比对您的照片与身份信息"
      durationMs={4000}
      steps={['上传照片', '活体检测', '身份比对']}
      after={
        <>
          <Button block color="primary" shape="rounded" size="large" onClick={() => window.location.reload()}>
            刷新核验结果
          </Button>
          <Button
            block
            fill="none"
            onClick={() => navigate('/credit-process/identity-verification', { replace: true })}
          >
            重新认证
          </Button>
        </>
      }
    />
  );
}
