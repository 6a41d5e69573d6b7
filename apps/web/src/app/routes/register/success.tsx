import Button from 'antd-mobile/es/components/button';
import { Link, useNavigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PrimaryButton } from '@/components/primary-button';
import { ResultView } from '@/components/result-view';
import { SiteFooter } from '@/components/site-footer';
import { useH5Config } from '@/lib/channel/store';
import { isLoggedIn } from '@/lib/session';
import styles from '../routes.module.css';
import own from './register.module.css';

/**
 * `/register/success`: registered. Also where the location flow sends people whose city the channel
 * does not serve (spec §4 step 3, no query): the page says so plainly and offers the next steps.
 */
export function RegisterSuccessRoute() {
  const navigate = useNavigate();
  const config = useH5Config();
  const loggedIn = isLoggedIn();
  const formPath = config.flowRoutes.form;
  return (
    <main className={styles.page}>
      <PageHeader title="注册成功" fallback="/" />
      <section className={own.card}>
        <ResultView
          status="success"
          title="注册成功"
          description="您的账户已创建。部分城市的合作机构服务暂未覆盖，如暂时没有适合您的产品，您可以先下载App，随时查看新开通的服务和申请进度。"
          actions={
            <>
              <PrimaryButton onClick={() => navigate('/download')}>下载App</PrimaryButton>
              <Button
                block
                fill="outline"
                color="primary"
                shape="rounded"
                onClick={() => navigate(loggedIn ? formPath : '/login')}
              >
                {loggedIn ? '完善资料，查看可申请产品' : '登录后查看可申请产品'}
              </Button>
            </>
          }
        >
          <ul className={own.next} aria-label="接下来可以做什么">
            <li>
              <div className={own.nextText}>
                <strong>完善资料</strong>
                <span>填写借款需求和基本情况，系统为您匹配合适的持牌机构产品。</span>
              </div>
              {loggedIn && <Link to={formPath}>去填写</Link>}
            </li>
            <li>
              <div className={own.nextText}>
                <strong>逐家授权</strong>
                <span>每个产品都标明出借机构和年化利率，只有您勾选的机构才会收到您的信息。</span>
              </div>
              <Link to="/information-agreement">了解授权</Link>
            </li>
            <li>
              <div className={own.nextText}>
                <strong>防骗提醒</strong>
                <span>放款前要求转账的都是诈骗，看看每日资讯里的识别方法。</span>
              </div>
              <Link to="/audit-new">每日资讯</Link>
            </li>
            {loggedIn && (
              <li>
                <div className={own.nextText}>
                  <strong>我的账户</strong>
                  <span>查看申请记录、授权机构，导出或删除您的数据。</span>
                </div>
                <Link to="/my">去查看</Link>
              </li>
            )}
          </ul>
        </ResultView>
      </section>
      <SiteFooter companies={config.footer} />
    </main>
  );
}
