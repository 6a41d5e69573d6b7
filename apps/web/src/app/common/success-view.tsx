import { Button } from 'antd-mobile';
import { Link, useLocation, useNavigate } from 'react-router';
import { ResultView } from '@/components/result-view';
import { useReportStep } from '@/features/analytics/use-report-step';
import styles from './forms.module.css';
import { isOn, numberOption, readQueryOptions } from './query-options';

/**
 * The result page of a flow (spec §2 success options): `isNotFormReq`, `rePageShowType` (2: the app
 * download guide), `revisit` (a returning applicant), `isSpecialListCity` (a city not served yet).
 */
export function SuccessView() {
  const navigate = useNavigate();
  const options = readQueryOptions(useLocation().search);
  useReportStep('visit_result');
  const revisit = isOn(options.revisit);
  const notForm = isOn(options.isNotFormReq);
  const specialCity = isOn(options.isSpecialListCity);
  const showDownload = numberOption(options.rePageShowType) === 2;

  const [status, title, description] = specialCity
    ? ([
        'info',
        '您所在城市暂未开通',
        '您所在城市的合作机构正在接入中，暂时无法为您匹配产品，给您带来不便敬请谅解。',
      ] as const)
    : revisit
      ? (['success', '欢迎回来', '您已提交过借款申请，合作机构正在审核，请留意机构的短信或来电。'] as const)
      : notForm
        ? (['success', '申请已提交', '您的资料已提交，合作机构审核通过后将与您联系。'] as const)
        : (['success', '提交成功', '您的申请已提交至所选机构，审核结果以机构通知为准。'] as const);

  return (
    <>
      <ResultView
        status={status}
        title={title}
        description={description}
        actions={
          <>
            {showDownload ? (
              <Button
                block
                color="primary"
                shape="rounded"
                size="large"
                onClick={() => navigate('/download')}
              >
                下载App，随时查看进度
              </Button>
            ) : (
              <Button
                block
                color="primary"
                shape="rounded"
                size="large"
                onClick={() => navigate('/borrow-money')}
              >
                查看更多借款产品
              </Button>
            )}
            <Button block fill="none" onClick={() => navigate('/my', { replace: true })}>
              进入个人中心
            </Button>
          </>
        }
      />
      <section className={styles.tips}>
        <h2>温馨提示</h2>
        <ol>
          <li>请保持手机畅通，合作机构可能通过电话或短信与您联系。</li>
          <li>放款前不会收取任何费用，要求先交费的都是诈骗。</li>
          <li>
            借款额度与利率以机构审批为准，详见<Link to="/clarification-announcement">《澄清公告》</Link>。
          </li>
        </ol>
      </section>
    </>
  );
}
