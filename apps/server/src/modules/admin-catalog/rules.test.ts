import { describe, expect, it } from 'vitest';
import { channelNotes, endpointProblem, publishProblems, targetUrlProblem, testerProfile } from './rules.ts';

describe('partner endpoints', () => {
  const prod = { production: true, allow: [] };
  const dev = {
    production: false,
    allow: [{ origin: 'http://127.0.0.1:8080', pathPrefix: '/api/dev/partner-sandbox/' }],
  };
  it('require a public https host; http only for the allow-listed sandbox, never in production', () => {
    expect(endpointProblem('https://lender.example.com/leads', prod)).toBeNull();
    expect(endpointProblem('http://127.0.0.1:8080/api/dev/partner-sandbox/partner-a/leads', dev)).toBeNull();
    expect(endpointProblem('http://127.0.0.1:8080/api/dev/partner-sandbox/partner-a/leads', prod)).toContain(
      'https',
    );
    // Any loopback used to pass outside production; only the sandbox entry does now.
    expect(endpointProblem('http://127.0.0.1:8080/leads', dev)).toContain('https');
    expect(endpointProblem('http://localhost/leads', dev)).toContain('https');
    expect(endpointProblem('https://localhost/leads', dev)).toContain('本机');
    expect(endpointProblem('http://lender.example.com/leads', dev)).toContain('https');
    expect(endpointProblem('ftp://lender.example.com', dev)).toContain('https');
    expect(endpointProblem('https://user:pw@lender.example.com', prod)).toContain('用户名或密码');
    expect(endpointProblem('not a url', prod)).toBe('不是有效的网址');
  });

  it('refuse the issue’s private and metadata endpoints in every mode', () => {
    for (const rules of [prod, dev]) {
      expect(endpointProblem('https://169.254.169.254/latest/meta-data/', rules)).toContain('元数据');
      expect(endpointProblem('https://10.0.0.5/leads', rules)).toContain('内网地址');
      expect(endpointProblem('https://metadata.google.internal/computeMetadata/v1/', rules)).toContain(
        '元数据',
      );
      expect(endpointProblem('https://2130706433/leads', rules)).toContain('本机回环地址（127.0.0.1）');
    }
  });
});

describe('product target URL', () => {
  it('must be on one of the lender’s allowed hosts', () => {
    expect(targetUrlProblem('https://a.example.com/x', ['a.example.com'])).toBeNull();
    // Exactly the registered host: a subdomain must be registered itself (the H5 would not open it).
    expect(targetUrlProblem('https://m.a.example.com/x', ['a.example.com'])).toContain('a.example.com');
    expect(targetUrlProblem('https://m.a.example.com/x', ['a.example.com', 'm.a.example.com'])).toBeNull();
    expect(targetUrlProblem('https://user@a.example.com/x', ['a.example.com'])).toContain('a.example.com');
    expect(targetUrlProblem(null, [])).toBeNull();
    expect(targetUrlProblem('https://evil.com/a.example.com', ['a.example.com'])).toContain('a.example.com');
    expect(targetUrlProblem('https://a.example.com/x', [])).toContain('尚未配置');
  });
});

describe('publishProblems', () => {
  const product = {
    aprBps: 1800,
    partnerLegalName: '星河消费金融有限公司',
    amountMinFen: 100_000,
    amountMaxFen: 1_000_000,
    termMinMonths: 3,
    termMaxMonths: 12,
    activeHours: null,
    linkType: 2 as const,
  };
  const ctx = { partnerStatus: 'active' as const, allowedHosts: ['a.example.com'], targetUrl: null };
  it('passes a sound product', () => {
    expect(publishProblems(product, ctx)).toEqual([]);
  });
  it('refuses above 24 %, without a legal name, a suspended lender, a redirect without an allowed URL', () => {
    const codes = publishProblems(
      { ...product, aprBps: 2401, partnerLegalName: '', linkType: 1 },
      { ...ctx, partnerStatus: 'suspended' },
    ).map((p) => p.code);
    expect(codes).toEqual(['APR_TOO_HIGH', 'LEGAL_NAME_MISSING', 'PARTNER_SUSPENDED', 'TARGET_URL_INVALID']);
    expect(publishProblems({ ...product, aprBps: 2400 }, ctx)).toEqual([]);
  });
});

describe('rule tester profile', () => {
  const sample = {
    applyLimit: 2,
    job: 3,
    socialSecurity: 0,
    housingFund: 1,
    insurance: 2,
    houseProperty: 1,
    carProperty: 0,
    sesameCredit: 3,
    creditInvestigation: 2,
    workCityCode: '510100',
  };
  it('maps the H5 option codes as the real form mapping does', () => {
    expect(testerProfile({ ...sample, age: 40 })).toEqual({
      applyLimitFen: 3_000_000,
      workCityCode: '510100',
      identity: undefined,
      age: 40,
      job: 'businessOwner',
      socialSecurity: 'none',
      housingFund: 'under6Months',
      insurance: 'over1Year',
      houseProperty: 'mortgageable',
      carProperty: 'none',
      sesameCredit: '650to700',
      creditInvestigation: 'fewOverdues',
    });
    expect(testerProfile({ ...sample, isHuaWeiPhone: true }).phoneBrand).toBe('huawei');
    expect(testerProfile({ ...sample, identity: '110101199003074514' }).identity).toBe('110101199003074514');
  });
});

describe('channel notes', () => {
  it('say when the channel is closed or excludes the city', () => {
    expect(channelNotes(null, '510100')).toEqual([]);
    expect(channelNotes({ channelStatus: 1, excludeCityCodes: [] }, '510100')).toEqual([]);
    const notes = channelNotes({ channelStatus: 0, excludeCityCodes: ['510100'] }, '510100');
    expect(notes).toHaveLength(2);
    expect(notes[1]).toContain('排除了所在城市');
  });
});
