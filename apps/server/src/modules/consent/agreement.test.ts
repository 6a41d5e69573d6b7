import { describe, expect, it } from 'vitest';
import { textHash } from '../../lib/text-hash.ts';
import { fieldLabels, formatApr, renderInfoAgreement } from './agreement.ts';

const operator = {
  companyName: '北京星河融信信息技术有限公司',
  shortName: '星河融信',
  filingNumber: '京ICP备2026000001号',
  servicePhone: '400-610-2026',
  email: 'privacy@xinghe-rx.example.cn',
};
const lender = {
  legalName: '星河消费金融有限公司',
  licenceNumber: '金融许可证 S0001H211000001',
  contactName: '张经理',
  contactPhone: '138****0001',
};
const product = {
  productName: '星河信用贷',
  aprBps: 1800,
  sharedFields: ['realName', 'mobile', 'workCity', 'workCityCode'],
};

describe('renderInfoAgreement', () => {
  it('names the operator, the lender, its contact, the APR, the fields and the purpose', () => {
    const a = renderInfoAgreement(operator, lender, product);
    expect(a.content).toContain(
      '提供方：北京星河融信信息技术有限公司（以下简称“星河融信”，备案号 京ICP备2026000001号）',
    );
    expect(a.content).toContain('400-610-2026');
    expect(a.content).toContain('privacy@xinghe-rx.example.cn');
    expect(a.content).toContain('星河消费金融有限公司');
    expect(a.content).toContain('S0001H211000001');
    expect(a.content).toContain('张经理');
    expect(a.content).toContain('138****0001');
    expect(a.content).toContain('18.00%');
    expect(a.content).toContain('姓名、手机号、工作城市。');
    expect(a.content).toContain('第二十三条');
    expect(a.textHash).toBe(textHash(a.content));
  });
  it('is deterministic and differs per operator, lender or field set', () => {
    const a = renderInfoAgreement(operator, lender, product);
    expect(renderInfoAgreement(operator, lender, product).textHash).toBe(a.textHash);
    expect(
      renderInfoAgreement({ ...operator, companyName: '上海云帆数科网络科技有限公司' }, lender, product)
        .textHash,
    ).not.toBe(a.textHash);
    expect(renderInfoAgreement(operator, { ...lender, legalName: '其他公司' }, product).textHash).not.toBe(
      a.textHash,
    );
    expect(renderInfoAgreement(operator, lender, { ...product, sharedFields: ['mobile'] }).textHash).not.toBe(
      a.textHash,
    );
  });
});

describe('helpers', () => {
  it('labels fields once each', () => {
    expect(fieldLabels(['workCity', 'workCityCode', 'identity'])).toEqual(['工作城市', '身份证号']);
  });
  it('formats basis points as a percentage', () => {
    expect(formatApr(2400)).toBe('24.00%');
    expect(formatApr(735)).toBe('7.35%');
  });
});
