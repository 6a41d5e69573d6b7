import type { ReactNode } from 'react';
import { groupThousands } from '@/lib/number';
import { APR_LINE, APR_MAX, APR_MIN, MAX_AMOUNT_WAN, MAX_AMOUNT_YUAN, monthlyPayment } from '../copy';
import type { LandingLayoutName } from '../layouts';
import { BannerArt, DialArt, PhoneArt, SkinIcon, WalletArt } from './illustrations';
import styles from './landing-layout.module.css';

export interface LandingLayoutProps {
  layout: LandingLayoutName;
  /** Brand line above the headline (the channel's title, or the product name). */
  brand: string;
  /** The login form (phone + SMS code); rendered inside the layout's application card. */
  login: ReactNode;
  /** Trust badges, risk notice and footer, in this order below the layout's own content. */
  trust?: ReactNode;
  notice?: ReactNode;
  footer?: ReactNode;
}

function Headline({ className }: { className?: string }) {
  return (
    <h1 className={className ?? styles.headline}>
      最高可借<strong>{MAX_AMOUNT_WAN}</strong>万
    </h1>
  );
}

function LoginCard({ login, title, flat }: { login: ReactNode; title: string; flat?: boolean }) {
  return (
    <section className={flat ? `${styles.card} ${styles.cardFlat}` : styles.card} aria-label="申请额度">
      <h2 className={styles.cardTitle}>{title}</h2>
      {login}
    </section>
  );
}

const HIGHLIGHTS = [
  { title: '额度高', text: `最高${MAX_AMOUNT_WAN}万` },
  { title: '审批快', text: '全程线上申请' },
  { title: '选择多', text: '多家持牌机构' },
] as const;

function HeroCard({ brand, login }: LandingLayoutProps) {
  return (
    <>
      <header className={styles.hero}>
        <div className={styles.heroText}>
          <p className={styles.eyebrow}>{brand} · 多家机构一次比选</p>
          <Headline />
          <p className={styles.apr}>{APR_LINE}</p>
        </div>
        <WalletArt className={styles.heroArt} />
      </header>
      <LoginCard login={login} title="手机号快速申请" />
      <ul className={styles.highlights}>
        {HIGHLIGHTS.map((item) => (
          <li key={item.title}>
            <strong>{item.title}</strong>
            <span>{item.text}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

const EXAMPLE_PRINCIPAL = 10_000;
const EXAMPLE_MONTHS = 12;

function AmountDial({ brand, login }: LandingLayoutProps) {
  const low = monthlyPayment(EXAMPLE_PRINCIPAL, EXAMPLE_MONTHS, APR_MIN);
  const high = monthlyPayment(EXAMPLE_PRINCIPAL, EXAMPLE_MONTHS, APR_MAX);
  return (
    <>
      <header className={`${styles.hero} ${styles.dialHero}`}>
        <p className={styles.eyebrow}>{brand}</p>
        <div className={styles.dial}>
          <DialArt className={styles.dialArt} />
          <div className={styles.dialText}>
            <span>最高可借额度(元)</span>
            <strong>{groupThousands(MAX_AMOUNT_YUAN)}</strong>
          </div>
        </div>
        <h1 className={styles.srOnly}>最高可借{MAX_AMOUNT_WAN}万</h1>
        <p className={styles.apr}>{APR_LINE}</p>
      </header>
      <LoginCard login={login} title="测一测我能借多少" />
      <section className={styles.panel} aria-labelledby="repay-example">
        <h2 id="repay-example" className={styles.panelTitle}>
          还款示例
        </h2>
        <dl className={styles.example}>
          <div>
            <dt>借款金额</dt>
            <dd>{groupThousands(EXAMPLE_PRINCIPAL)}元</dd>
          </div>
          <div>
            <dt>借款期数</dt>
            <dd>{EXAMPLE_MONTHS}期</dd>
          </div>
          <div>
            <dt>年化利率</dt>
            <dd>
              {APR_MIN}%-{APR_MAX}%
            </dd>
          </div>
          <div>
            <dt>每期应还</dt>
            <dd className={styles.em}>
              约{low}-{high}元
            </dd>
          </div>
        </dl>
        <p className={styles.panelNote}>
          示例按等额本息计算，仅供参考；实际额度、利率与期限以合作机构审批及借款合同为准。
        </p>
      </section>
    </>
  );
}

const STEPS = [
  { icon: 'form', title: '填写资料', text: '手机号登录，填写基本信息，约2分钟' },
  { icon: 'match', title: '智能匹配', text: '按您的资质匹配合适的持牌机构' },
  { icon: 'money', title: '机构审批', text: '逐一确认授权，由机构审核放款' },
] as const;

function StepsList({ brand, login }: LandingLayoutProps) {
  return (
    <>
      <header className={styles.lightHero}>
        <div className={styles.heroText}>
          <p className={styles.lightEyebrow}>{brand}</p>
          <Headline className={styles.lightHeadline} />
          <p className={styles.lightApr}>{APR_LINE}</p>
        </div>
        <PhoneArt className={styles.phoneArt} />
      </header>
      <LoginCard login={login} title="三步申请，先测额度" flat />
      <section className={styles.panel} aria-labelledby="apply-steps">
        <h2 id="apply-steps" className={styles.panelTitle}>
          申请流程
        </h2>
        <ol className={styles.steps}>
          {STEPS.map((step, i) => (
            <li key={step.title}>
              <span className={styles.stepIcon}>
                <SkinIcon name={step.icon} />
              </span>
              <div>
                <strong>
                  {i + 1}. {step.title}
                </strong>
                <p>{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

const BENEFITS = [
  { icon: 'amount', title: '额度高', text: `最高可借${MAX_AMOUNT_WAN}万` },
  { icon: 'bank', title: '机构正规', text: '合作机构均持牌经营' },
  { icon: 'clock', title: '期限灵活', text: '多种期限可选' },
  { icon: 'online', title: '全程线上', text: '手机申请，无需跑腿' },
] as const;

function BannerBenefits({ brand, login }: LandingLayoutProps) {
  return (
    <>
      <header className={styles.banner}>
        <BannerArt className={styles.bannerArt} />
        <div className={styles.bannerText}>
          <p className={styles.eyebrow}>{brand}</p>
          <Headline />
          <p className={styles.apr}>{APR_LINE}</p>
        </div>
      </header>
      <LoginCard login={login} title="立即申请，在线测额" />
      <ul className={styles.benefits}>
        {BENEFITS.map((b) => (
          <li key={b.title}>
            <SkinIcon name={b.icon} className={styles.benefitIcon} />
            <div>
              <strong>{b.title}</strong>
              <span>{b.text}</span>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

const LAYOUTS: Record<LandingLayoutName, (props: LandingLayoutProps) => ReactNode> = {
  'hero-card': HeroCard,
  'amount-dial': AmountDial,
  'steps-list': StepsList,
  'banner-benefits': BannerBenefits,
};

/** The landing page of a skin: its hero and content, then the shared trust, notice and footer blocks. */
export function LandingLayout(props: LandingLayoutProps) {
  const Layout = LAYOUTS[props.layout];
  return (
    <main className={styles.page} data-layout={props.layout}>
      <Layout {...props} />
      {props.trust}
      {props.notice}
      {props.footer}
    </main>
  );
}
