import type { H5Config } from '@lm/shared/channel';
import { describe, expect, it, vi } from 'vitest';
import { memoryStore } from '@/lib/storage';
import { type BootstrapDeps, normalizeConfig, runChannelBootstrap, takeClosedChannelReload } from './resolve';
import { DEFAULT_H5_CONFIG } from './store';

const NOW = Date.parse('2026-05-10T04:00:00Z'); // 12:00 in Shanghai

const config = (over: Partial<H5Config> = {}): H5Config => ({
  ...DEFAULT_H5_CONFIG,
  adChannelCode: 'demo',
  allowedHosts: ['partner.example.com'],
  ...over,
});

function setup(href: string, over: Partial<BootstrapDeps> = {}) {
  const local = memoryStore();
  const session = memoryStore();
  const state: { channel?: string; config?: H5Config; status?: string } = {};
  const deps: BootstrapDeps = {
    href,
    local,
    session,
    now: () => NOW,
    exchangeRouteCode: vi.fn(async () => ({ adChannelCode: 'demo', planTargetUrl: null })),
    fetchH5Config: vi.fn(async (code: string) => config({ adChannelCode: code })),
    navigate: vi.fn(),
    replaceLocation: vi.fn(),
    reload: vi.fn(),
    log: vi.fn(),
    setChannel: (c) => {
      state.channel = c;
    },
    setConfig: (c) => {
      state.config = c;
    },
    setStatus: (s) => {
      state.status = s;
    },
    ...over,
  };
  return { deps, local, session, state };
}

describe('runChannelBootstrap on a page the server rendered for the channel (issue 17.1)', () => {
  const skin8 = config({ adChannelCode: 'demo-skin8', skin: 8, title: '星河易借' });

  it('starts with the inlined configuration: no h5Config call, ready at once', async () => {
    const { deps, state } = setup('https://h5.test/?adChannelCode=demo-skin8', {
      inlined: { adChannelCode: 'demo-skin8', config: skin8, route: null },
    });
    const result = await runChannelBootstrap(deps);
    expect(deps.fetchH5Config).not.toHaveBeenCalled();
    expect(state).toMatchObject({ channel: 'demo-skin8', status: 'ready' });
    expect(result.config).toEqual(normalizeConfig(skin8, 'demo-skin8'));
  });

  it("asks h5Config when the inlined channel is not the link's", async () => {
    const { deps } = setup('https://h5.test/?adChannelCode=demo', {
      inlined: { adChannelCode: 'demo-skin8', config: skin8, route: null },
    });
    await runChannelBootstrap(deps);
    expect(deps.fetchH5Config).toHaveBeenCalledWith('demo');
  });

  it("uses the server's exchange of the link's route code and caches it for the day", async () => {
    const { deps, local } = setup('https://h5.test/?adRouteCode=R8', {
      inlined: {
        adChannelCode: 'demo-skin8',
        config: skin8,
        route: { adRouteCode: 'R8', adChannelCode: 'demo-skin8', planTargetUrl: null },
      },
    });
    const result = await runChannelBootstrap(deps);
    expect(deps.exchangeRouteCode).not.toHaveBeenCalled();
    expect(deps.fetchH5Config).not.toHaveBeenCalled();
    expect(result).toMatchObject({ adChannelCode: 'demo-skin8', fromLink: true, outcome: 'ready' });
    expect(JSON.parse(local.get('ROUTE_CODE_MAP')!)).toEqual({
      R8: { channelCode: 'demo-skin8', planTargetUrl: null, expire: '2026-05-10' },
    });
  });
});

describe('runChannelBootstrap', () => {
  it('stores the query channel code and loads its h5Config', async () => {
    const { deps, local, state } = setup('https://h5.test/?adChannelCode=demo-fenqile');
    const result = await runChannelBootstrap(deps);
    expect(local.get('ad_channel_code')).toBe('demo-fenqile');
    expect(deps.fetchH5Config).toHaveBeenCalledWith('demo-fenqile');
    expect(state).toMatchObject({ channel: 'demo-fenqile', status: 'ready' });
    expect(result).toMatchObject({ outcome: 'ready', adChannelCode: 'demo-fenqile', fromLink: true });
  });

  it('keeps the stored code when the link has none', async () => {
    const { deps, local } = setup('https://h5.test/login');
    local.set('ad_channel_code', 'demo-skin8');
    const result = await runChannelBootstrap(deps);
    expect(result).toMatchObject({ adChannelCode: 'demo-skin8', fromLink: false });
  });

  it('falls back to the default configuration when h5Config fails', async () => {
    const { deps, state } = setup('https://h5.test/?adChannelCode=x', {
      fetchH5Config: vi.fn(() => Promise.reject(new Error('404'))),
    });
    const result = await runChannelBootstrap(deps);
    expect(state.status).toBe('failed');
    expect(result.config).toEqual({ ...DEFAULT_H5_CONFIG, adChannelCode: 'x' });
  });

  it('exchanges a route code, caches it for the Shanghai day and wins over a query code', async () => {
    const { deps, local } = setup('https://h5.test/?adRouteCode=R1&adChannelCode=other');
    const result = await runChannelBootstrap(deps);
    expect(deps.exchangeRouteCode).toHaveBeenCalledWith('R1');
    expect(result.adChannelCode).toBe('demo');
    expect(local.get('ad_channel_code')).toBe('demo');
    expect(JSON.parse(local.get('ROUTE_CODE_MAP')!)).toEqual({
      R1: { channelCode: 'demo', planTargetUrl: null, expire: '2026-05-10' },
    });
  });

  it('uses the cached route code the same day without calling the server', async () => {
    const { deps, local } = setup('https://h5.test/?adRouteCode=R1');
    local.set(
      'ROUTE_CODE_MAP',
      JSON.stringify({ R1: { channelCode: 'cached', planTargetUrl: null, expire: '2026-05-10' } }),
    );
    expect((await runChannelBootstrap(deps)).adChannelCode).toBe('cached');
    expect(deps.exchangeRouteCode).not.toHaveBeenCalled();
  });

  it('exchanges again once the cached day is over', async () => {
    const { deps, local } = setup('https://h5.test/?adRouteCode=R1');
    local.set(
      'ROUTE_CODE_MAP',
      JSON.stringify({ R1: { channelCode: 'cached', planTargetUrl: null, expire: '2026-05-09' } }),
    );
    expect((await runChannelBootstrap(deps)).adChannelCode).toBe('demo');
    expect(deps.exchangeRouteCode).toHaveBeenCalledTimes(1);
  });

  it('a route code that cannot be exchanged is logged and the query/stored code used', async () => {
    const { deps } = setup('https://h5.test/?adRouteCode=R9&source=demo-skin9', {
      exchangeRouteCode: vi.fn(() => Promise.reject(new Error('404'))),
    });
    expect((await runChannelBootstrap(deps)).adChannelCode).toBe('demo-skin9');
    expect(deps.log).toHaveBeenCalled();
  });

  it('redirects to an allowed external plan target', async () => {
    const { deps } = setup('https://h5.test/?adRouteCode=R1', {
      exchangeRouteCode: vi.fn(async () => ({
        adChannelCode: 'demo',
        planTargetUrl: 'https://partner.example.com/p',
      })),
    });
    expect((await runChannelBootstrap(deps)).outcome).toBe('redirected');
    expect(deps.replaceLocation).toHaveBeenCalledWith('https://partner.example.com/p');
  });

  it('redirects to a same-site plan target through the router', async () => {
    const { deps } = setup('https://h5.test/?adRouteCode=R1', {
      exchangeRouteCode: vi.fn(async () => ({ adChannelCode: 'demo', planTargetUrl: '/getQuota' })),
    });
    await runChannelBootstrap(deps);
    expect(deps.navigate).toHaveBeenCalledWith('/getQuota');
  });

  it('a same-site target naming a channel is loaded afresh', async () => {
    const { deps } = setup('https://h5.test/?adRouteCode=R1', {
      exchangeRouteCode: vi.fn(async () => ({
        adChannelCode: 'demo',
        planTargetUrl: '/getQuota?adChannelCode=b',
      })),
    });
    await runChannelBootstrap(deps);
    expect(deps.replaceLocation).toHaveBeenCalledWith('/getQuota?adChannelCode=b');
  });

  it('ignores (and logs) a plan target on a host that is not allowed', async () => {
    const { deps } = setup('https://h5.test/?adRouteCode=R1', {
      exchangeRouteCode: vi.fn(async () => ({
        adChannelCode: 'demo',
        planTargetUrl: 'https://evil.example.com/',
      })),
    });
    expect((await runChannelBootstrap(deps)).outcome).toBe('ready');
    expect(deps.replaceLocation).not.toHaveBeenCalled();
    expect(deps.log).toHaveBeenCalledWith(expect.stringContaining('evil.example.com'));
  });

  it('ignores a same-site target that carries a route code (loop)', async () => {
    const { deps } = setup('https://h5.test/?adRouteCode=R1', {
      exchangeRouteCode: vi.fn(async () => ({ adChannelCode: 'demo', planTargetUrl: '/?adRouteCode=R1' })),
    });
    expect((await runChannelBootstrap(deps)).outcome).toBe('ready');
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('channelStatus 0 reloads at the original address once per session, then stops', async () => {
    const href = 'https://h5.test/?adChannelCode=demo-off&x=1';
    const closed = vi.fn(async () => config({ adChannelCode: 'demo-off', channelStatus: 0 }));
    const first = setup(href, { fetchH5Config: closed });
    expect((await runChannelBootstrap(first.deps)).outcome).toBe('reloading');
    expect(first.deps.reload).toHaveBeenCalledWith(href);

    // The reloaded page shares the session storage.
    const second = setup(href, { fetchH5Config: closed, session: first.session });
    expect((await runChannelBootstrap(second.deps)).outcome).toBe('ready');
    expect(second.deps.reload).not.toHaveBeenCalled();
  });

  it('a closed channel does not follow its plan target', async () => {
    const { deps } = setup('https://h5.test/?adRouteCode=R1', {
      exchangeRouteCode: vi.fn(async () => ({ adChannelCode: 'demo-off', planTargetUrl: '/getQuota' })),
      fetchH5Config: vi.fn(async () => config({ channelStatus: 0 })),
    });
    await runChannelBootstrap(deps);
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(deps.reload).toHaveBeenCalled();
  });

  it('captures the callback parameters of the channel’s platform from the landing URL', async () => {
    const { deps, local } = setup('https://h5.test/?adChannelCode=demo&clickid=C9&callback=cb', {
      fetchH5Config: vi.fn(async () =>
        config({ trackReport: { platform: 'oceanengine', params: ['clickid', 'callback'] } }),
      ),
    });
    await runChannelBootstrap(deps);
    expect(JSON.parse(local.get('TRACK_REPORT')!)).toEqual({
      demo: { platform: 'oceanengine', clickid: 'C9', callback: 'cb' },
    });
  });
});

describe('helpers', () => {
  it('takeClosedChannelReload answers true once per code', () => {
    const session = memoryStore();
    expect(takeClosedChannelReload(session, 'a')).toBe(true);
    expect(takeClosedChannelReload(session, 'a')).toBe(false);
    expect(takeClosedChannelReload(session, 'b')).toBe(true);
  });

  it('normalizeConfig fills missing fields from the defaults', () => {
    const c = normalizeConfig({ adChannelCode: 'x', skin: 8, flow: 'fenqile', flowRoutes: undefined }, 'x');
    expect(c.skin).toBe(8);
    expect(c.flowRoutes.form).toBe('/new-fill-information');
    expect(c.allowedHosts).toEqual([]);
    expect(normalizeConfig({ flow: 'formprocess4' }, 'z').flowRoutes.form).toBe('/fill-information-four');
    expect(normalizeConfig(null, 'y')).toEqual({ ...DEFAULT_H5_CONFIG, adChannelCode: 'y' });
  });
});

describe('console live preview (previewToken)', () => {
  it('shows the draft of the token and stores, exchanges, redirects and reloads nothing', async () => {
    const draft = config({
      adChannelCode: 'draft-code',
      skin: 12,
      channelStatus: 0,
      planTargetUrl: 'https://partner.example.com/x',
    });
    const setPreview = vi.fn();
    const { deps, local, session, state } = setup(
      'https://h5.test/?previewToken=abc.def&adChannelCode=other&adRouteCode=r-plan',
      { fetchH5Config: vi.fn(async () => draft), setPreview },
    );
    local.set('ad_channel_code', 'kept');
    const result = await runChannelBootstrap(deps);
    expect(deps.fetchH5Config).toHaveBeenCalledWith('', 'abc.def');
    expect(deps.exchangeRouteCode).not.toHaveBeenCalled();
    expect(deps.reload).not.toHaveBeenCalled();
    expect(deps.replaceLocation).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
    expect(setPreview).toHaveBeenCalledWith(true);
    expect(local.get('ad_channel_code')).toBe('kept');
    expect(session.get('closedChannelReloads')).toBeFalsy();
    expect(state).toMatchObject({ status: 'ready', config: { skin: 12 } });
    expect(result.outcome).toBe('preview');
  });

  it('falls back to the default look when the token is refused', async () => {
    const { deps, state } = setup('https://h5.test/?previewToken=abc.def', {
      fetchH5Config: vi.fn(() => Promise.reject(new Error('401'))),
    });
    const result = await runChannelBootstrap(deps);
    expect(result.outcome).toBe('preview');
    expect(state).toMatchObject({ status: 'failed', config: { skin: DEFAULT_H5_CONFIG.skin } });
  });
});
