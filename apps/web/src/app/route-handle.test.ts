import { describe, expect, it } from 'vitest';
import { DEFAULT_ICON, DEFAULT_TITLE, resolveHead, STAFF_ICON } from './route-handle';

const q = (s = '') => new URLSearchParams(s);
const none = { title: null, icon: null };

describe('resolveHead', () => {
  it('uses the deepest titled route, else the default title and icon', () => {
    expect(resolveHead([{ title: '我的' }, { title: '安全中心' }], q(), none)).toEqual({
      title: '安全中心',
      icon: DEFAULT_ICON,
    });
    expect(resolveHead([undefined, {}], q(), none)).toEqual({ title: DEFAULT_TITLE, icon: DEFAULT_ICON });
  });

  it('lets the channel title replace the title only on flagged routes', () => {
    const channel = { title: '极速借', icon: null };
    expect(resolveHead([{ title: '借款超市', channelTitle: true }], q(), channel).title).toBe('极速借');
    expect(resolveHead([{ title: '完善资料' }], q(), channel).title).toBe('完善资料');
  });

  it('computes titles from the query', () => {
    const handle = { title: (query: URLSearchParams) => query.get('productName') };
    expect(resolveHead([handle], q('productName=好借'), none).title).toBe('好借');
    expect(resolveHead([handle], q(), none).title).toBe(DEFAULT_TITLE);
  });

  it('prefers the channel icon, then the route icon', () => {
    expect(resolveHead([{ icon: STAFF_ICON }], q(), none).icon).toBe(STAFF_ICON);
    expect(resolveHead([{ icon: STAFF_ICON }], q(), { title: null, icon: '/x.png' }).icon).toBe('/x.png');
  });
});
