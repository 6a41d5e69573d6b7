import { FLOW_ROUTES, SPECIAL_ROUTES } from '@lm/shared/channel';
import type { CreditInfo } from '@lm/shared/credit-info';
import { describe, expect, it } from 'vitest';
import {
  type ChannelFacts,
  DEFAULT_FORM_CONFIG,
  type Decision,
  decide,
  isAutoFormUsable,
  type NavigateDecision,
  normalizeLoginUser,
  type PostLoginInput,
  rePageShowType,
  wantsAutoForm,
} from './decide';

const channel = (over: Partial<ChannelFacts> = {}): ChannelFacts => ({
  adChannelCode: 'demo',
  linkType: 4,
  flags: ['skin17'],
  flow: 'default',
  flowRoutes: FLOW_ROUTES.default,
  needsLocation: false,
  excludeCityCodes: [],
  ...over,
});

/** An old user (no automatic form) on the default channel, nothing fetched yet. */
const input = (over: Partial<PostLoginInput> = {}): PostLoginInput => ({
  ordering: 'main',
  channel: channel(),
  loginUser: { uid: 1, userInfoStatus: 3, coverStatus: 0 },
  isHuaweiPhone: false,
  ...over,
});

const completeCreditInfo: CreditInfo = {
  education: 3,
  maritalStatus: 1,
  annualIncome: 2,
  occupation: 0,
  loanPurpose: 5,
  residentialRegion: '110101',
  residentialAddress: '某街道1号',
  companyName: '某公司',
  companyRegion: '110101',
  companyAddress: '某路2号',
  auditStatus: 2,
  contacts: [
    { relationship: '0', name: '张三', phone: '13800000001' },
    { relationship: '3', name: '李四', phone: '13800000002' },
  ],
};

const applied = (submitStatus: number) => ({
  code: 200,
  data: { submitStatus, applyLimit: 3, workCity: '北京市' },
});
const product = {
  id: 7,
  productName: '好借',
  companyType: 'KAInstitution',
  matchKey: 'k1.c2VhbGVkIGtleQ.b3BhcXVl.dGFn',
  lender: { legalName: '某某小额贷款有限公司', contactPhone: '400****000' },
};

function nav(decision: Decision): NavigateDecision {
  if (decision.kind !== 'navigate') throw new Error(`expected a navigation, got need ${decision.what}`);
  return decision;
}

/** Main ordering after the Haier check with the code details in hand, default flow reached. */
const defaultFlow = (over: Partial<PostLoginInput> = {}) => input({ channelDetail: null, ...over });

describe('main ordering (spec §4 post-login decision)', () => {
  describe('step 1: Haier automatic form', () => {
    const haier = channel({ flags: ['skin17', 'haier'] });

    it('step 1: userInfoStatus 0 on the Haier channel → automatic form route', () => {
      const d = nav(
        decide(input({ channel: haier, loginUser: { uid: 1, userInfoStatus: 0, coverStatus: 0 } })),
      );
      expect(d.path).toBe(SPECIAL_ROUTES.haierAutoForm);
      expect(d.step).toMatch(/^main\.1/);
    });

    it.each([
      1, 2,
    ])('step 1: userInfoStatus %i with coverStatus 1 on the Haier channel → automatic form', (status) => {
      const d = nav(
        decide(input({ channel: haier, loginUser: { uid: 1, userInfoStatus: status, coverStatus: 1 } })),
      );
      expect(d.path).toBe(SPECIAL_ROUTES.haierAutoForm);
    });

    it('step 1: userInfoStatus 1 without coverStatus 1 → not the automatic form (reads the code details)', () => {
      expect(
        decide(input({ channel: haier, loginUser: { uid: 1, userInfoStatus: 1, coverStatus: 0 } })),
      ).toEqual({
        kind: 'need',
        what: 'channelDetail',
      });
    });

    it('step 1: userInfoStatus 0 on a channel without the haier flag → no automatic form', () => {
      expect(decide(input({ loginUser: { uid: 1, userInfoStatus: 0, coverStatus: 0 } }))).toEqual({
        kind: 'need',
        what: 'channelDetail',
      });
    });

    it('step 1 + §5: the automatic form is not usable with linkType 1', () => {
      expect(isAutoFormUsable(channel({ flags: ['haier'], linkType: 1 }))).toBe(false);
      expect(isAutoFormUsable(channel({ flags: ['haier'], linkType: 4 }))).toBe(true);
      expect(wantsAutoForm({ uid: 1, userInfoStatus: 3, coverStatus: 1 })).toBe(false);
    });
  });

  describe('step 2: code details, then location flow or link-type flow', () => {
    it('step 2: reads the code details first', () => {
      expect(decide(input())).toEqual({ kind: 'need', what: 'channelDetail' });
    });

    it('step 2: a channel with location → the location flow asks for the location', () => {
      expect(decide(input({ channel: channel({ needsLocation: true }), channelDetail: null }))).toEqual({
        kind: 'need',
        what: 'location',
      });
    });

    it('step 2: a channel without location → the link-type flow (default flow loads the form config)', () => {
      expect(decide(defaultFlow())).toEqual({ kind: 'need', what: 'formConfig' });
    });

    it('step 2: the code details’ link type wins over the cached h5Config one', () => {
      const d = nav(decide(input({ channel: channel({ linkType: 4 }), channelDetail: { linkType: 1 } })));
      expect(d.step).toBe('main.4 linkType 1: registerLink');
    });
  });

  describe('step 3: location flow', () => {
    const located = channel({ needsLocation: true, linkType: 2 });
    const beijing = { province: '北京市', city: '北京市', cityCode: '110100', excludeCity: true };

    it('step 3: excluded city and linkType 2 → report the device, registration success', () => {
      const d = nav(decide(input({ channel: located, channelDetail: null, location: beijing })));
      expect(d.path).toBe(SPECIAL_ROUTES.registerSuccess);
      expect(d.reportDevice).toEqual({ provinceName: '北京市', cityName: '北京市', adChannelCode: 'demo' });
    });

    it('step 3: a city in the channel’s excludeCityCodes counts as excluded too', () => {
      const d = nav(
        decide(
          input({
            channel: channel({ needsLocation: true, linkType: 2, excludeCityCodes: ['110100'] }),
            channelDetail: null,
            location: { ...beijing, excludeCity: false },
          }),
        ),
      );
      expect(d.path).toBe(SPECIAL_ROUTES.registerSuccess);
    });

    it('step 3: city not excluded → the link-type flow', () => {
      expect(
        decide(
          input({ channel: located, channelDetail: null, location: { ...beijing, excludeCity: false } }),
        ),
      ).toEqual({ kind: 'need', what: 'formConfig' });
    });

    it('step 3: excluded city but linkType not 2 → the link-type flow', () => {
      const d = nav(
        decide(
          input({
            channel: channel({ needsLocation: true, linkType: 1 }),
            channelDetail: null,
            location: beijing,
          }),
        ),
      );
      expect(d.step).toBe('main.4 linkType 1: registerLink');
      expect(d.query).toEqual({ isSpecialListCity: true, registered: true });
    });

    it('step 3: no location (geolocation and IP lookup failed) → the link-type flow', () => {
      expect(decide(input({ channel: located, channelDetail: null, location: null }))).toEqual({
        kind: 'need',
        what: 'formConfig',
      });
    });
  });

  describe('step 4: link-type flow', () => {
    it('step 4: linkType 1 → registerLink (flow success with isSpecialListCity and registered, replace)', () => {
      const d = nav(decide(input({ channel: channel({ linkType: 1 }), channelDetail: null })));
      expect(d).toMatchObject({
        path: FLOW_ROUTES.default.success,
        query: { isSpecialListCity: false, registered: true },
        replace: true,
      });
    });

    it('step 4: linkType 1 on formprocess3 → that flow’s success page', () => {
      const d = nav(
        decide(
          input({
            channel: channel({ linkType: 1, flow: 'formprocess3', flowRoutes: FLOW_ROUTES.formprocess3 }),
            channelDetail: null,
          }),
        ),
      );
      expect(d.path).toBe('/fill-information-three/success-page');
    });

    const crm = (over: Partial<PostLoginInput> = {}) =>
      input({ channel: channel({ linkType: 3 }), channelDetail: null, ...over });

    it('step 4: linkType 3 loads the form config', () => {
      expect(decide(crm())).toEqual({ kind: 'need', what: 'formConfig' });
    });

    it('step 4: linkType 3, credit and diversion closed → registerLink', () => {
      const d = nav(decide(crm({ formConfig: { creditStatus: 0, diversionStatus: 0, coverStatus: 0 } })));
      expect(d.step).toBe('main.4 linkType 3: credit and diversion closed, registerLink');
      expect(d).toMatchObject({
        path: FLOW_ROUTES.default.success,
        query: { isSpecialListCity: false, registered: true },
        replace: true,
      });
    });

    it('step 4: linkType 3, credit closed and diversion open → the default flow', () => {
      const config = { creditStatus: 0, diversionStatus: 1, coverStatus: 0 };
      expect(decide(crm({ formConfig: config }))).toEqual({ kind: 'need', what: 'applyStatus' });
      expect(nav(decide(crm({ formConfig: config, applyStatus: null }))).step).toBe(
        'main.5 apply status not 200: form',
      );
    });

    it('step 4: linkType 3, credit open → loads the base info', () => {
      expect(decide(crm({ formConfig: { creditStatus: 1, diversionStatus: 1, coverStatus: 0 } }))).toEqual({
        kind: 'need',
        what: 'creditInfo',
      });
    });

    it('step 4: linkType 3, credit open and face not passed → identity verification', () => {
      const d = nav(
        decide(
          crm({
            formConfig: { creditStatus: 1, diversionStatus: 1, coverStatus: 0 },
            creditInfo: { auditStatus: 1 },
          }),
        ),
      );
      expect(d.path).toBe(SPECIAL_ROUTES.identityVerification);
      expect(d.toast).toBeUndefined();
    });

    it('step 4: linkType 3, credit open and no base info → identity verification', () => {
      const d = nav(
        decide(
          crm({ formConfig: { creditStatus: 1, diversionStatus: 0, coverStatus: 0 }, creditInfo: null }),
        ),
      );
      expect(d.path).toBe(SPECIAL_ROUTES.identityVerification);
    });

    it('step 4: linkType 3, credit open and face passed → face-verification loading', () => {
      const d = nav(
        decide(
          crm({
            formConfig: { creditStatus: 1, diversionStatus: 1, coverStatus: 0 },
            creditInfo: { auditStatus: 2 },
          }),
        ),
      );
      expect(d.path).toBe(SPECIAL_ROUTES.faceVerificationLoading);
    });

    it.each([2, 4, 5, 6, 7, 8, 9])('step 4: linkType %i → the default flow', (linkType) => {
      expect(decide(input({ channel: channel({ linkType }), channelDetail: null }))).toEqual({
        kind: 'need',
        what: 'formConfig',
      });
    });
  });

  describe('step 5: default flow', () => {
    it('step 5: form config coverStatus 1 → the form with coverStatus=1 (replace)', () => {
      const d = nav(
        decide(defaultFlow({ formConfig: { creditStatus: 0, diversionStatus: 1, coverStatus: 1 } })),
      );
      expect(d).toMatchObject({ path: '/fill-information', query: { coverStatus: 1 }, replace: true });
    });

    it('step 5: coverStatus 1 on fenqile → fenqile’s form', () => {
      const d = nav(
        decide(
          defaultFlow({
            channel: channel({ flow: 'fenqile', flags: ['fenqile'], flowRoutes: FLOW_ROUTES.fenqile }),
            formConfig: { coverStatus: 1 },
          }),
        ),
      );
      expect(d.path).toBe('/new-fill-information');
    });

    it('step 5: otherwise loads the apply status', () => {
      expect(decide(defaultFlow({ formConfig: DEFAULT_FORM_CONFIG }))).toEqual({
        kind: 'need',
        what: 'applyStatus',
      });
    });

    it('step 5: form config unavailable (404) → defaults, no cover, apply status next', () => {
      expect(decide(defaultFlow({ formConfig: null }))).toEqual({ kind: 'need', what: 'applyStatus' });
    });

    it('step 5: apply status code not 200 → the form', () => {
      const d = nav(decide(defaultFlow({ formConfig: null, applyStatus: { code: 404, data: null } })));
      expect(d).toMatchObject({ path: '/fill-information', replace: false });
      expect(d.query).toBeUndefined();
    });

    it('step 5: apply status call failed → the form', () => {
      expect(nav(decide(defaultFlow({ formConfig: null, applyStatus: null }))).path).toBe(
        '/fill-information',
      );
    });

    it('step 5: apply status 200 → the submit-status rule', () => {
      expect(decide(defaultFlow({ formConfig: null, applyStatus: applied(10) }))).toEqual({
        kind: 'need',
        what: 'rematch',
      });
    });
  });

  describe('step 6: submit-status rule', () => {
    it.each([1, 10])('step 6: submitStatus %i → re-match as old user', (status) => {
      expect(decide(defaultFlow({ formConfig: null, applyStatus: applied(status) }))).toEqual({
        kind: 'need',
        what: 'rematch',
      });
    });

    it('step 6: re-match without productName → success with isNotFormReq, revisit, rePageShowType 0', () => {
      const d = nav(decide(defaultFlow({ formConfig: null, applyStatus: applied(1), rematch: { id: 3 } })));
      expect(d).toMatchObject({
        path: '/fill-information/success',
        query: { isNotFormReq: true, revisit: true, rePageShowType: 0 },
      });
    });

    it('step 6: re-match sold out (0) or already registered (2) without a product → success with applyStatus', () => {
      const d = nav(
        decide(
          defaultFlow({ formConfig: null, applyStatus: applied(1), rematch: { id: null, applyStatus: 0 } }),
        ),
      );
      expect(d).toMatchObject({
        path: '/fill-information/success',
        query: { isNotFormReq: true, revisit: true, applyStatus: 0 },
      });
      const registered = nav(
        decide(
          defaultFlow({
            formConfig: null,
            applyStatus: applied(10),
            rematch: { id: null, applyStatus: 2, thirdpartyTargetUrl: 'https://partner-a.example.com/x' },
          }),
        ),
      );
      expect(registered.query).toMatchObject({ applyStatus: 2 });
      // The lender's page is never put in the link.
      expect(registered.query).not.toHaveProperty('thirdpartyTargetUrl');
      const plain = nav(
        decide(defaultFlow({ formConfig: null, applyStatus: applied(1), rematch: { id: 3 } })),
      );
      expect(plain.query).not.toHaveProperty('applyStatus');
    });

    it('step 6: re-match failed (no data) → success', () => {
      expect(
        nav(decide(defaultFlow({ formConfig: null, applyStatus: applied(1), rematch: null }))).path,
      ).toBe('/fill-information/success');
    });

    it('step 6: no product on a fenqile channel on a Huawei phone → rePageShowType 2', () => {
      const d = nav(
        decide(
          defaultFlow({
            channel: channel({
              flow: 'fenqile',
              flags: ['skin17', 'fenqile'],
              flowRoutes: FLOW_ROUTES.fenqile,
            }),
            isHuaweiPhone: true,
            formConfig: null,
            applyStatus: applied(10),
            rematch: {},
          }),
        ),
      );
      expect(d.query).toMatchObject({ rePageShowType: 2 });
    });

    it('step 6: rePageShowType is 0 for fenqile on other phones and for Huawei on other channels', () => {
      expect(rePageShowType(channel({ flow: 'fenqile', flags: ['fenqile'] }), false)).toBe(0);
      expect(rePageShowType(channel(), true)).toBe(0);
    });

    it('step 6: re-match with a product → the flow’s re-match route with the match key only (issue 16.8)', () => {
      const d = nav(
        decide(
          defaultFlow({ formConfig: null, applyStatus: applied(1), rematch: product, isHuaweiPhone: true }),
        ),
      );
      expect(d).toMatchObject({
        path: '/fill-information/rematch-waiting',
        replace: false,
      });
      // Issue 44.6: the key and the channel code only — none of the person's answers, not the device.
      expect(d.query).toEqual({ adChannelCode: 'demo', matchKey: product.matchKey });
      // The result (lenders' details) never travels in the link.
      expect(Object.keys(d.query ?? {})).not.toContain('rqResult');
      expect(JSON.stringify(d.query)).not.toContain('某某小额贷款');
    });

    it('step 6: with a product on formprocess3 → authorize-page-three', () => {
      const d = nav(
        decide(
          defaultFlow({
            channel: channel({ flow: 'formprocess3', flowRoutes: FLOW_ROUTES.formprocess3 }),
            formConfig: null,
            applyStatus: applied(10),
            rematch: product,
          }),
        ),
      );
      expect(d.path).toBe('/fill-information-three/authorize-page-three');
    });

    it.each([0, null, 2])('step 6: submitStatus %s → the form', (status) => {
      const d = nav(
        decide(defaultFlow({ formConfig: null, applyStatus: { code: 200, data: { submitStatus: status } } })),
      );
      expect(d).toMatchObject({ step: 'main.6 not submitted: form', path: '/fill-information' });
    });

    it('step 6: formprocess4 without submission → its form', () => {
      const d = nav(
        decide(
          defaultFlow({
            channel: channel({ flow: 'formprocess4', flowRoutes: FLOW_ROUTES.formprocess4 }),
            formConfig: null,
            applyStatus: applied(0),
          }),
        ),
      );
      expect(d.path).toBe('/fill-information-four');
    });
  });

  describe('step 7: linkType 1 resets the cover status', () => {
    it('step 7: linkType 1 with coverStatus 1 → coverStatus 0', () => {
      expect(normalizeLoginUser({ uid: 1, userInfoStatus: 1, coverStatus: 1 }, 1).coverStatus).toBe(0);
      expect(normalizeLoginUser({ uid: 1, userInfoStatus: 1, coverStatus: 1 }, 4).coverStatus).toBe(1);
    });

    it('step 7: so a linkType 1 Haier user with userInfoStatus 1 and coverStatus 1 gets no automatic form', () => {
      const user = normalizeLoginUser({ uid: 1, userInfoStatus: 1, coverStatus: 1 }, 1);
      expect(wantsAutoForm(user)).toBe(false);
    });
  });
});

describe('alternative credit-flow ordering (spec §4)', () => {
  const credit = (over: Partial<PostLoginInput> = {}) => input({ ordering: 'credit', ...over });
  const open = { creditStatus: 1, diversionStatus: 1, coverStatus: 0 };

  it('loads the user form config first', () => {
    expect(decide(credit())).toEqual({ kind: 'need', what: 'formConfig' });
  });

  it('step 1: credit open → loads the credit info', () => {
    expect(decide(credit({ formConfig: open }))).toEqual({ kind: 'need', what: 'creditInfo' });
  });

  it('step 1: credit open, face not passed → toast 认证失败 for 2 s, then face verification', () => {
    const d = nav(
      decide(credit({ formConfig: open, creditInfo: { ...completeCreditInfo, auditStatus: 1 } })),
    );
    expect(d).toMatchObject({
      path: SPECIAL_ROUTES.identityVerification,
      toast: { content: '认证失败', duration: 2000 },
      delayMs: 2000,
    });
  });

  it('step 1: credit open, face passed, credit info incomplete → credit personal info', () => {
    const d = nav(
      decide(credit({ formConfig: open, creditInfo: { ...completeCreditInfo, companyName: '' } })),
    );
    expect(d.path).toBe(SPECIAL_ROUTES.creditPersonalInfo);
  });

  it('step 1: the baseDetail answer of a face-passed person with nothing filled in → credit personal info', () => {
    const blank = { relationship: '', name: '', phone: '' };
    const baseDetail = { contacts: [blank, blank], auditStatus: 2, step: 'INFORMATION' as const };
    const d = nav(decide(credit({ formConfig: open, creditInfo: baseDetail })));
    expect(d.path).toBe(SPECIAL_ROUTES.creditPersonalInfo);
  });

  it('step 1: credit open, face passed, info complete → continues (step 2 onwards)', () => {
    expect(decide(credit({ formConfig: open, creditInfo: completeCreditInfo }))).toEqual({
      kind: 'need',
      what: 'applyStatus',
    });
  });

  it('step 2: diversion closed → success', () => {
    const d = nav(decide(credit({ formConfig: { creditStatus: 0, diversionStatus: 0, coverStatus: 1 } })));
    expect(d).toMatchObject({
      step: 'credit.2 diversion closed: success',
      path: '/fill-information/success',
    });
  });

  it('step 3: CanCover → application form with coverStatus=1', () => {
    const d = nav(decide(credit({ formConfig: { creditStatus: 0, diversionStatus: 1, coverStatus: 1 } })));
    expect(d).toMatchObject({ path: SPECIAL_ROUTES.creditApplicationForm, query: { coverStatus: 1 } });
  });

  it('step 4: otherwise fetches the apply status', () => {
    expect(decide(credit({ formConfig: null }))).toEqual({ kind: 'need', what: 'applyStatus' });
  });

  it.each([1, 10])('step 4: submitStatus %i → re-match as old user', (status) => {
    expect(decide(credit({ formConfig: null, applyStatus: applied(status) }))).toEqual({
      kind: 'need',
      what: 'rematch',
    });
  });

  it('step 4: re-match without product name → success (revisit)', () => {
    const d = nav(decide(credit({ formConfig: null, applyStatus: applied(1), rematch: { id: 1 } })));
    expect(d).toMatchObject({ path: '/fill-information/success', query: { revisit: true } });
  });

  it('step 4: re-match with a product → common-authorize with the options JSON (the match key only)', () => {
    const d = nav(decide(credit({ formConfig: null, applyStatus: applied(10), rematch: product })));
    expect(d).toMatchObject({ path: SPECIAL_ROUTES.commonAuthorize });
    // Issue 44.6: no answer of the person (applyLimit 3, workCity 北京市) in the link.
    expect(d.query).toEqual({ options: { adChannelCode: 'demo', matchKey: product.matchKey } });
    expect(JSON.stringify(d.query)).not.toContain('rqResult');
  });

  it('step 5: not submitted → application form', () => {
    const d = nav(decide(credit({ formConfig: null, applyStatus: applied(0) })));
    expect(d).toMatchObject({
      step: 'credit.5 otherwise: application form',
      path: SPECIAL_ROUTES.creditApplicationForm,
    });
    expect(d.query).toBeUndefined();
  });

  it('step 5: apply status unavailable (404) → application form', () => {
    const d = nav(decide(credit({ formConfig: null, applyStatus: { code: 404, data: null } })));
    expect(d.path).toBe(SPECIAL_ROUTES.creditApplicationForm);
  });
});
