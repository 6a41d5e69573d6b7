import { AGREEMENT_PAGES } from '@lm/shared/channel';
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

describe('the 13 built-in agreements', () => {
  it('cover exactly the agreement pages of spec §2, with their titles', () => {
    expect(AGREEMENT_SEEDS.map((s) => [s.code, s.title])).toEqual(
      AGREEMENT_PAGES.map((p) => [p.key, p.title]),
    );
  });

  it.each(
    AGREEMENT_SEEDS.map((s) => [s.code, s] as const),
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

  it('the privacy policy describes what the product does', () => {
    const privacy = AGREEMENT_SEEDS.find((s) => s.code === 'privacy-agreement')!;
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

  it('take effect on the Shanghai day of their version', () => {
    for (const s of AGREEMENT_SEEDS) {
      expect(s.effectiveAt.toISOString()).toBe('2026-11-21T16:00:00.000Z');
      expect(s.body.effectiveDate).toBe('2026年11月22日');
    }
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
