import { describe, expect, it } from 'vitest';
import {
  auditFieldLabel,
  auditValueText,
  bpsText,
  fenText,
  productRulesText,
  regionText,
} from './audit-labels.ts';
import { channelFlagText } from './schemas/admin-channels.ts';

describe('audit log labels (issue 44.11)', () => {
  it('reads the issue’s entries in words: statuses, rates, company types, Shanghai times', () => {
    expect(auditFieldLabel('product', 'status')).toBe('上架状态');
    expect(auditValueText('product', 'status', 'draft')).toBe('草稿');
    expect(auditValueText('product', 'status', 'published')).toBe('已上架');
    expect(auditFieldLabel('product', 'aprBps')).toBe('综合年化利率');
    expect(auditValueText('product', 'aprBps', 2650)).toBe('26.50%');
    expect(auditValueText('product', 'aprBps', 1800)).toBe('18.00%');
    expect(auditValueText('product', 'aprBps', null)).toBe('未填写');
    expect(auditFieldLabel('product', 'companyType')).toBe('机构类别');
    expect(auditValueText('product', 'companyType', 'KAInstitution')).toBe('大机构');
    expect(auditFieldLabel('product', 'createdAt')).toBe('创建时间');
    // 01:33 UTC is 09:33 in Shanghai, whatever the runtime's zone.
    expect(auditValueText('product', 'createdAt', '2026-12-05T01:33:07.550Z')).toBe('2026-12-05 09:33:07');
  });

  it('formats money in yuan, terms, caps, hours and the rules', () => {
    expect(fenText(500000)).toBe('¥5,000.00');
    expect(auditValueText('product', 'amountMaxFen', 5_000_000)).toBe('¥50,000.00');
    expect(auditValueText('product', 'priceFen', 1250)).toBe('¥12.50');
    expect(bpsText(2400)).toBe('24.00%');
    expect(auditValueText('product', 'termMaxMonths', 36)).toBe('36 个月');
    expect(auditValueText('product', 'dailyCap', null)).toBe('不限');
    expect(auditValueText('product', 'dailyCap', 500)).toBe('500');
    expect(auditValueText('product', 'activeHours', { from: '09:00', to: '21:00' })).toBe('09:00–21:00');
    expect(auditValueText('product', 'activeHours', null)).toBe('全天');
    expect(auditValueText('product', 'linkType', 2)).toBe('2 API对接');
    expect(auditValueText('product', 'institutionType', 1)).toBe('头部机构');
    expect(auditValueText('product', 'sharedFields', ['realName', 'workCity', 'workCityCode'])).toBe(
      '姓名、工作城市',
    );
    expect(
      productRulesText({
        citiesIn: ['440000', '110100'],
        ageMin: 22,
        ageMax: 55,
        amountMaxFen: 5_000_000,
        jobs: ['employee'],
        requireSocialSecurity: true,
        sesameMin: '650to700',
        creditRecord: ['good'],
      }),
    ).toBe(
      '只服务：广东省、北京市；年龄 22–55 岁；申请金额 不限–¥50,000.00；职业：上班族；须有社保；芝麻分至少 650-700分；信用记录：信用良好，无逾期',
    );
    expect(productRulesText({})).toBe('不限');
  });

  it('reads a product’s lead price in words (issue 48.1)', () => {
    expect(auditFieldLabel('product_price', 'model')).toBe('计价方式');
    expect(auditValueText('product_price', 'model', 'cpl')).toBe('按线索 CPL');
    expect(auditValueText('product_price', 'model', 'cps')).toBe('按放款 CPS');
    expect(auditFieldLabel('product_price', 'amountFen')).toBe('每条线索价格');
    expect(auditValueText('product_price', 'amountFen', 3_500)).toBe('¥35.00');
    expect(auditFieldLabel('product_price', 'bps')).toBe('放款金额分成比例');
    expect(auditValueText('product_price', 'bps', 150)).toBe('1.50%');
    expect(auditFieldLabel('product_price', 'effectiveFrom')).toBe('生效日期');
    expect(auditValueText('product_price', 'effectiveFrom', '2026-12-07')).toBe('2026-12-07');
  });

  it('names channel flags, skins, cities and partners’ delivery modes', () => {
    expect(auditFieldLabel('channel', 'flags')).toBe('皮肤与功能标记');
    expect(auditValueText('channel', 'flags', 'skin8-purple-teal-halo-shallowBlue')).toBe(
      '皮肤8、紫色、青色、光晕蓝、浅蓝',
    );
    expect(channelFlagText('fenqile')).toBe('分期乐流程');
    expect(channelFlagText('mystery')).toBe('未知标记（mystery）');
    expect(auditValueText('channel', 'channelStatus', 0)).toBe('停用');
    expect(auditValueText('route_code', 'status', 1)).toBe('启用');
    expect(
      auditValueText('channel', 'skinArms', [
        { skin: 8, weight: 50 },
        { skin: 9, weight: 50 },
      ]),
    ).toBe('皮肤8（权重 50）、皮肤9（权重 50）');
    expect(regionText('440300')).toBe('广东省深圳市');
    expect(auditValueText('channel', 'excludeCityCodes', ['440300', '110000'])).toBe('广东省深圳市、北京市');
    expect(auditValueText('channel', 'excludeCityCodes', [])).toBe('无');
    expect(auditValueText('channel', 'needsLocation', true)).toBe('是');
    expect(auditValueText('partner', 'deliveryModes', { '2': 'api', '1': 'h5Redirect' })).toBe(
      '1 H5跳转：H5跳转、2 API对接：API推送',
    );
    expect(auditValueText('partner', 'status', 'suspended')).toBe('已暂停');
    expect(auditValueText('partner', 'signingSecretEnc', '***')).toBe('（已隐藏）');
  });

  it('names staff roles, login methods, lock scopes, lead and notice states, reveals', () => {
    expect(auditValueText('staff', 'role', 'channel_partner')).toBe('渠道合作方');
    expect(auditValueText('staff', 'status', 'disabled')).toBe('已停用');
    expect(auditValueText('staff', 'loginMethods', 'password+sms')).toBe('密码或短信验证码');
    expect(auditValueText('staff', 'scope', 'account')).toBe('所有网络');
    expect(auditValueText('staff', 'lockMinutes', 15)).toBe('15 分钟');
    expect(auditValueText('staff', 'channelCodes', ['demo', 'demo-skin8'])).toBe('demo、demo-skin8');
    expect(auditValueText('lead', 'status', 'dead')).toBe('发送失败');
    expect(auditValueText('lead', 'attempts', 2)).toBe('2 次');
    expect(auditValueText('notice', 'kind', 'deletion')).toBe('删除数据通知');
    expect(auditValueText('user', 'field', 'identity')).toBe('身份证号');
    expect(auditValueText('lead', 'lastError', undefined)).toBe('');
    expect(auditValueText('lead', 'lastError', null)).toBe('—');
  });
});
