import { FLOW_ROUTES } from '@lm/shared/channel';
import { describe, expect, it, vi } from 'vitest';
import type { PostLoginInput } from './decide';
import { type PostLoginDeps, runPostLogin } from './run-post-login';

const base: PostLoginInput = {
  ordering: 'main',
  channel: {
    adChannelCode: 'demo-location',
    linkType: 2,
    flags: ['skin17'],
    flow: 'default',
    flowRoutes: FLOW_ROUTES.default,
    needsLocation: true,
    excludeCityCodes: [],
  },
  loginUser: { uid: 1, userInfoStatus: 3, coverStatus: 0 },
  isHuaweiPhone: false,
};

function deps(over: Partial<PostLoginDeps> = {}): PostLoginDeps {
  const notFound = () => Promise.reject(new Error('404'));
  return {
    channelDetail: vi.fn(notFound),
    location: vi.fn(notFound),
    formConfig: vi.fn(notFound),
    creditInfo: vi.fn(notFound),
    applyStatus: vi.fn(async () => ({ code: 404, data: null })),
    rematch: vi.fn(notFound),
    reportDevice: vi.fn(async () => undefined),
    ...over,
  };
}

describe('runPostLogin', () => {
  it('with every call failing (endpoints not built yet) ends at the form', async () => {
    const d = deps();
    const decision = await runPostLogin(base, d);
    expect(decision.path).toBe('/fill-information');
    expect(d.channelDetail).toHaveBeenCalledWith('demo-location');
    expect(d.location).toHaveBeenCalledWith('demo-location');
    expect(d.formConfig).toHaveBeenCalledTimes(1);
    expect(d.applyStatus).toHaveBeenCalledTimes(1);
    expect(d.rematch).not.toHaveBeenCalled();
    expect(d.creditInfo).not.toHaveBeenCalled();
  });

  it('reports the device before going to registration success for an excluded city', async () => {
    const d = deps({
      channelDetail: vi.fn(async () => ({ linkType: 2, excludeCityCodes: ['110100'] })),
      location: vi.fn(async () => ({
        province: '北京市',
        city: '北京市',
        cityCode: '110100',
        excludeCity: true,
      })),
    });
    const decision = await runPostLogin(base, d);
    expect(decision.path).toBe('/register/success');
    expect(d.reportDevice).toHaveBeenCalledWith({
      provinceName: '北京市',
      cityName: '北京市',
      adChannelCode: 'demo-location',
    });
    expect(d.formConfig).not.toHaveBeenCalled();
  });

  it('still navigates when reportDevice fails', async () => {
    const d = deps({
      channelDetail: vi.fn(async () => null),
      location: vi.fn(async () => ({ province: '北京市', city: '北京市', excludeCity: true })),
      reportDevice: vi.fn(() => Promise.reject(new Error('down'))),
    });
    expect((await runPostLogin(base, d)).path).toBe('/register/success');
  });

  it('an old user with a product goes to the re-match route', async () => {
    const d = deps({
      channelDetail: vi.fn(async () => ({ linkType: 4 })),
      location: vi.fn(async () => null),
      formConfig: vi.fn(async () => ({ creditStatus: 0, diversionStatus: 1, coverStatus: 0 })),
      applyStatus: vi.fn(async () => ({
        code: 200,
        data: { submitStatus: 10, applyLimit: 2, workCity: '上海市' },
      })),
      rematch: vi.fn(async () => ({ id: 9, productName: '好借' })),
    });
    const decision = await runPostLogin(base, d);
    expect(decision.path).toBe('/fill-information/rematch-waiting');
    expect(d.rematch).toHaveBeenCalledWith('demo-location');
  });

  it('falls back to the form when the decision throws', async () => {
    const broken = { ...base, channel: { ...base.channel, flags: null as unknown as string[] } };
    const decision = await runPostLogin(broken, deps());
    expect(decision).toMatchObject({ step: 'fallback: form', path: '/fill-information' });
  });
});
