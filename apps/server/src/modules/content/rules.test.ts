import { createHash } from 'node:crypto';
import { AGREEMENT_PAGES } from '@lm/shared/channel';
import { shanghaiDateText, shanghaiDayStart } from '@lm/shared/time';
import { describe, expect, it } from 'vitest';
import { AGREEMENT_SEEDS } from './agreements.ts';
import { ARTICLE_CATEGORIES, ARTICLE_SEEDS } from './articles.ts';
import {
  agreementPlainText,
  fillPlaceholders,
  PLACEHOLDERS,
  pageOffset,
  pickInForce,
  placeholdersIn,
  renderAgreementBody,
  TemplateError,
  type TemplateVars,
  templateVars,
  versionStates,
} from './rules.ts';

const OPERATOR = {
  code: 'test-op',
  companyName: '测试运营有限公司',
  shortName: '测试借',
  address: '上海市浦东新区测试路1号',
  filingNumber: '沪ICP备0000001号',
  servicePhone: '400-000-0000',
  email: 'dpo@test.example.cn',
  smsSignature: '测试借',
};
const VARS: TemplateVars = templateVars(OPERATOR, 15);

const allText = (body: {
  effectiveDate: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
}) =>
  [body.effectiveDate, body.intro, ...body.sections.flatMap((s) => [s.heading, ...s.paragraphs])].join('\n');

describe('fillPlaceholders', () => {
  it('fills every known placeholder, with or without inner spaces', () => {
    expect(fillPlaceholders('由{{operatorName}}运营，电话{{ operatorServicePhone }}', VARS)).toBe(
      '由测试运营有限公司运营，电话400-000-0000',
    );
    expect(fillPlaceholders('{{deletionWorkingDays}}个工作日', VARS)).toBe('15个工作日');
  });

  it('rejects an unknown placeholder instead of printing it', () => {
    expect(() => fillPlaceholders('联系{{operatorFax}}', VARS)).toThrow(TemplateError);
    expect(() => fillPlaceholders('联系{{operatorFax}}', VARS)).toThrow('operatorFax');
    // Not an own property of the vars either.
    expect(() => fillPlaceholders('{{toString}}', VARS)).toThrow(TemplateError);
  });

  it('rejects broken template syntax', () => {
    expect(() => fillPlaceholders('运营方 {{operatorName', VARS)).toThrow(TemplateError);
    expect(() => fillPlaceholders('运营方 operatorName}}', VARS)).toThrow(TemplateError);
    expect(() => fillPlaceholders('{{ 中文 }}', VARS)).toThrow(TemplateError);
  });

  it('leaves text without placeholders unchanged', () => {
    expect(fillPlaceholders('请理性借贷', VARS)).toBe('请理性借贷');
  });
});

const seedsOf = (code: string) => AGREEMENT_SEEDS.filter((s) => s.code === code);
const seed = (code: string, version: string) =>
  AGREEMENT_SEEDS.find((s) => s.code === code && s.version === version)!;

describe('the 13 built-in agreements', () => {
  it('version 2026-11-22 covers exactly the agreement pages of spec §2, with their titles', () => {
    expect(AGREEMENT_SEEDS.filter((s) => s.version === '2026-11-22').map((s) => [s.code, s.title])).toEqual(
      AGREEMENT_PAGES.map((p) => [p.key, p.title]),
    );
  });

  it('later versions are of the same pages, keep their titles and are unique per code', () => {
    const titles = new Map<string, string>(AGREEMENT_PAGES.map((p) => [p.key, p.title]));
    for (const s of AGREEMENT_SEEDS) expect(s.title).toBe(titles.get(s.code));
    const keys = AGREEMENT_SEEDS.map((s) => `${s.code}@${s.version}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Each code's versions take effect one after another: a later version string, a later instant.
    for (const p of AGREEMENT_PAGES) {
      const list = seedsOf(p.key);
      for (let i = 1; i < list.length; i += 1) {
        expect(list[i]!.version > list[i - 1]!.version).toBe(true);
        expect(list[i]!.effectiveAt.getTime()).toBeGreaterThan(list[i - 1]!.effectiveAt.getTime());
      }
    }
  });

  it.each(
    AGREEMENT_SEEDS.map((s) => [`${s.code}@${s.version}`, s] as const),
  )('%s uses only known placeholders and renders completely', (_, seed) => {
    const used = placeholdersIn(allText(seed.body));
    for (const name of used) expect(PLACEHOLDERS).toContain(name);
    const rendered = allText(renderAgreementBody(seed.body, VARS));
    expect(rendered).not.toContain('{{');
    expect(rendered).not.toContain('}}');
    // Every text names the operator and how to reach it.
    for (const value of [
      OPERATOR.companyName,
      OPERATOR.address,
      OPERATOR.filingNumber,
      OPERATOR.servicePhone,
      OPERATOR.email,
    ]) {
      expect(rendered).toContain(value);
    }
    expect(seed.body.intro.length).toBeGreaterThan(40);
    expect(seed.body.sections.length).toBeGreaterThanOrEqual(4);
    expect(new Set(seed.body.sections.map((s) => s.heading)).size).toBe(seed.body.sections.length);
    for (const s of seed.body.sections) expect(s.paragraphs.length).toBeGreaterThan(0);
  });

  it.each([
    '2026-11-22',
    '2026-12-06',
  ])('the privacy policy of %s describes what the product does', (version) => {
    const privacy = seed('privacy-agreement', version);
    const text = allText(renderAgreementBody(privacy.body, VARS));
    for (const fact of [
      '短信验证码',
      '芝麻分',
      '加密',
      '单独勾选',
      '谁在使用我的数据',
      '导出',
      '注销',
      '15个工作日内删除',
      '保存期限',
    ]) {
      expect(text).toContain(fact);
    }
  });

  it('take effect at the start of the Shanghai day of their version', () => {
    for (const s of AGREEMENT_SEEDS) {
      expect(s.effectiveAt).toEqual(shanghaiDayStart(s.version));
      expect(s.body.effectiveDate).toBe(shanghaiDateText(s.effectiveAt));
    }
    expect(seed('register-agreement', '2026-11-22').effectiveAt.toISOString()).toBe(
      '2026-11-21T16:00:00.000Z',
    );
    expect(seed('register-agreement', '2026-11-22').body.effectiveDate).toBe('2026年11月22日');
    expect(seed('privacy-agreement', '2026-12-06').effectiveAt.toISOString()).toBe(
      '2026-12-05T16:00:00.000Z',
    );
    expect(seed('privacy-agreement', '2026-12-06').body.effectiveDate).toBe('2026年12月6日');
  });

  /**
   * A published text is never edited: consents and audits refer to the stored version, and
   * `ensureAgreements` never rewrites one. Changing a text means adding a version with a later effectiveAt
   * (and its hash here); a hash that no longer matches means a published text was edited in place.
   */
  const PUBLISHED: Record<string, string> = {
    'register-agreement@2026-11-22': '19f92bdae7150ca97c1e9dd3239198639c37a0bb94454a2a224c425a47926682',
    'privacy-agreement@2026-11-22': 'f34e55e2c6dec76a8149b372af06182654a947ad7f0db5c84482941c138eca5a',
    'information-agreement@2026-11-22': 'fdda6dcd756659f18bd8a6352b134804e1eb5189428c5187ad2f6da4ed8b3615',
    'info-audit-agreement@2026-11-22': 'e6d4a3e09399d8f0185d4fba9244c86d47fcce87567c6a19c1628478a3948887',
    'jkr-general-agreement@2026-11-22': '912f5767c972a289c27b74cf134cacb6682caef61677588255825460e8cb8251',
    'jkr-student-agreement@2026-11-22': 'c357f2a7d11fae2e79cc319d1b8765cace9e6612406a006fd8b8c680805f8a93',
    'jkr-privacy-agreement@2026-11-22': 'f7c84f8dcadb707b0f3a3c20d82758ef204f8e867660a0ab3d999ecb94e27f82',
    'jkr-register-agreement@2026-11-22': '7c83d2c90c67a6c954235c3c9456fd4092eca77473decdf0b5b0ecf59c87e069',
    'clarification-announcement@2026-11-22':
      '3f679873dfbfbc8d128275f4a0bc492074fabdc1715e3886938da8ccab5934c7',
    'audit-agreement-privacy@2026-11-22': '8a68382eb4f5feb33289a6980bfb4d599d6f4947d5ad81037051fe5322585d88',
    'audit-agreement-register@2026-11-22': 'dab9445d768dccce64d34239a38577309bb1b3ac0113cb993e364b4fb085aa8c',
    'audit-agreement-contact@2026-11-22': 'fde6cf59e8173fec7ca030957ee673672008063544e20b755cc66f4150939ec2',
    'yq-shopkeeper-agreement@2026-11-22': 'e99bc8f5f56fbd5fea93611a3d7c9abcaebec5b6bd2c340137ea1ad639f04534',
    'privacy-agreement@2026-12-06': 'e6a6ea0557e5781a6c1be1b316512a480d68f15c2a5f051b7927fef9cd5dc997',
    'jkr-privacy-agreement@2026-12-06': 'fa304c81bef5a771ef568b5818e5aae1e83512ea6c941f8fecd3a3e2b50baede',
  };

  it('no published version has been edited in place', () => {
    const hashes = Object.fromEntries(
      AGREEMENT_SEEDS.map((s) => [
        `${s.code}@${s.version}`,
        createHash('sha256')
          .update(
            JSON.stringify({ title: s.title, effectiveAt: s.effectiveAt.toISOString(), body: s.body }),
            'utf8',
          )
          .digest('hex'),
      ]),
    );
    expect(hashes).toEqual(PUBLISHED);
  });
});

/** The ad platforms and the companies that run them, as the privacy texts of 2026-12-06 name them (issue 47.7). */
const AD_PLATFORM_COMPANIES = [
  ['巨量引擎', '北京巨量引擎网络技术有限公司'],
  ['磁力引擎', '北京快手广告有限公司'],
  ['百度营销', '北京百度网讯科技有限公司'],
  ['腾讯广告', '深圳市腾讯计算机系统有限公司'],
] as const;

describe('advertising conversion reporting in the privacy texts (version 2026-12-06)', () => {
  const rendered = (code: string, version: string) => renderAgreementBody(seed(code, version).body, VARS);
  const sectionOf = (code: string, version: string) =>
    rendered(code, version).sections.find((s) => s.heading.endsWith('广告效果回传'));

  it.each([
    'privacy-agreement',
    'jkr-privacy-agreement',
  ])('%s has a section naming every platform, what is sent, what never is, why and how to object', (code) => {
    const section = sectionOf(code, '2026-12-06');
    expect(section).toBeDefined();
    const text = section!.paragraphs.join('\n');
    for (const [platform, company] of AD_PLATFORM_COMPANIES) {
      expect(text).toContain(platform);
      expect(text).toContain(company);
    }
    // What is sent: the click id the ad link carried, the event, its time, the amount of 授信/放款.
    for (const sent of [
      '点击编号',
      '注册',
      '表单提交',
      '授权',
      '授信',
      '放款',
      '时间',
      '授信额度',
      '放款金额',
    ]) {
      expect(text).toContain(sent);
    }
    // What never is: phone, name, ID number, or any hash of them, nor the form.
    expect(text).toMatch(/不会向广告平台发送您的手机号码、姓名、身份证号码/);
    expect(text).toContain('摘要（哈希）');
    expect(text).toContain('申请表');
    // Why, and how to object.
    expect(text).toContain('衡量和优化广告投放效果');
    expect(text).toContain('反对');
  });

  it('the privacy policy gives the contact to object to, and no longer says there is no ad tracking', () => {
    const now = rendered('privacy-agreement', '2026-12-06');
    const section = sectionOf('privacy-agreement', '2026-12-06')!;
    // The objection goes to the contact section, which names the phone and the e-mail.
    expect(section.paragraphs.join('')).toContain('第十三条');
    const contact = now.sections.find((s) => s.heading === '十三、联系我们')!;
    expect(contact.paragraphs.join('')).toContain(OPERATOR.servicePhone);
    expect(contact.paragraphs.join('')).toContain(OPERATOR.email);
    // Every "第N条" the text cites is one of its sections.
    const numbers = now.sections.map((s) => s.heading.split('、')[0]);
    for (const m of allText(now).matchAll(/第([一二三四五六七八九十]+)条/g)) expect(numbers).toContain(m[1]);
    // The collection and local storage of the click ids are stated; the old promise is gone.
    expect(allText(now)).toContain('广告点击信息');
    expect(allText(now)).not.toContain('不使用第三方广告跟踪');
    // The version before it said so, and is kept unchanged.
    expect(allText(rendered('privacy-agreement', '2026-11-22'))).toContain('不使用第三方广告跟踪');
    expect(sectionOf('privacy-agreement', '2026-11-22')).toBeUndefined();
  });

  it('the audit privacy agreement keeps its single version: no audit data is reported', () => {
    expect(seedsOf('audit-agreement-privacy').map((s) => s.version)).toEqual(['2026-11-22']);
  });

  it('the version in force changes at the start of 6 December in Shanghai', () => {
    const privacy = seedsOf('privacy-agreement');
    expect(pickInForce(privacy, new Date('2026-12-05T23:59:59.999+08:00'))?.version).toBe('2026-11-22');
    expect(pickInForce(privacy, new Date('2026-12-06T00:00:00+08:00'))?.version).toBe('2026-12-06');
    expect(pickInForce(seedsOf('register-agreement'), new Date('2027-01-01T00:00:00+08:00'))?.version).toBe(
      '2026-11-22',
    );
  });
});

describe('an unknown placeholder in a stored text', () => {
  it('fails rendering of the whole body', () => {
    const body = {
      effectiveDate: 'x',
      intro: '由{{operatorName}}运营',
      sections: [{ heading: '一', paragraphs: ['{{companyStamp}}'] }],
    };
    expect(() => renderAgreementBody(body, VARS)).toThrow('companyStamp');
  });
});

describe('pickInForce', () => {
  const at = (iso: string) => new Date(iso);
  const rows = [
    { version: 'v1', effectiveAt: at('2026-01-01T00:00:00Z') },
    { version: 'v3', effectiveAt: at('2026-12-01T00:00:00Z') },
    { version: 'v2', effectiveAt: at('2026-06-01T00:00:00Z') },
  ];

  it('serves the newest version whose effective time has passed', () => {
    expect(pickInForce(rows, at('2026-07-01T00:00:00Z'))?.version).toBe('v2');
    expect(pickInForce(rows, at('2026-06-01T00:00:00Z'))?.version).toBe('v2');
    expect(pickInForce(rows, at('2026-05-31T23:59:59Z'))?.version).toBe('v1');
    expect(pickInForce(rows, at('2027-01-01T00:00:00Z'))?.version).toBe('v3');
  });

  it('serves nothing before the first version takes effect', () => {
    expect(pickInForce(rows, at('2025-12-31T00:00:00Z'))).toBeNull();
    expect(pickInForce([], new Date())).toBeNull();
  });

  it('breaks a tie on the effective time by the later creation', () => {
    const same = at('2026-01-01T00:00:00Z');
    const tie = [
      { version: 'b', effectiveAt: same, createdAt: at('2026-01-02T00:00:00Z') },
      { version: 'a', effectiveAt: same, createdAt: at('2026-01-03T00:00:00Z') },
    ];
    expect(pickInForce(tie, at('2026-02-01T00:00:00Z'))?.version).toBe('a');
  });

  it('labels every version for the audit list', () => {
    const states = versionStates(rows, at('2026-07-01T00:00:00Z')).map((s) => [s.row.version, s.state]);
    expect(states).toEqual([
      ['v3', 'scheduled'],
      ['v2', 'in_force'],
      ['v1', 'superseded'],
    ]);
  });
});

describe('dates and paging', () => {
  it('page offsets start at page 1', () => {
    expect(pageOffset(1, 10)).toBe(0);
    expect(pageOffset(3, 10)).toBe(20);
    expect(pageOffset(0, 10)).toBe(0);
  });
});

describe('agreementPlainText', () => {
  it('prints title, version, date, introduction and sections in order', () => {
    const text = agreementPlainText('注册协议', '2026-11-22', {
      effectiveDate: '2026年11月22日',
      intro: '欢迎',
      sections: [{ heading: '一、服务', paragraphs: ['甲', '乙'] }],
    });
    expect(text).toBe('《注册协议》\n版本：2026-11-22　生效日期：2026年11月22日\n\n欢迎\n\n一、服务\n甲\n乙');
  });
});

describe('the demo articles', () => {
  it('are about a dozen useful articles, 3–6 paragraphs, each on its own Shanghai day', () => {
    expect(ARTICLE_SEEDS.length).toBeGreaterThanOrEqual(10);
    const days = ARTICLE_SEEDS.map((a) => a.published.slice(0, 10));
    expect(new Set(days).size).toBe(ARTICLE_SEEDS.length);
    expect(new Set(ARTICLE_SEEDS.map((a) => a.slug)).size).toBe(ARTICLE_SEEDS.length);
    for (const a of ARTICLE_SEEDS) {
      expect(a.body.length).toBeGreaterThanOrEqual(3);
      expect(a.body.length).toBeLessThanOrEqual(6);
      expect(ARTICLE_CATEGORIES).toContain(a.category as (typeof ARTICLE_CATEGORIES)[number]);
      expect(a.slug).toMatch(/^[a-z0-9-]+$/);
      expect(a.slug).not.toMatch(/^\d+$/);
      expect(a.summary.length).toBeGreaterThan(10);
    }
  });
});
