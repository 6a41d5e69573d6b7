import { describe, expect, it } from 'vitest';
import { memoryStore } from '../storage';
import { getStoredChannelCode, pickChannelCode, setStoredChannelCode } from './code';

const q = (s: string) => new URLSearchParams(s);

describe('pickChannelCode (which query key wins, spec §3)', () => {
  it('adChannelCode wins over source and apiChannelCode', () => {
    expect(pickChannelCode(q('apiChannelCode=c&source=b&adChannelCode=a'))).toBe('a');
  });
  it('source wins over apiChannelCode', () => {
    expect(pickChannelCode(q('apiChannelCode=c&source=b'))).toBe('b');
  });
  it('apiChannelCode alone', () => {
    expect(pickChannelCode(q('apiChannelCode=c'))).toBe('c');
  });
  it('blank values are skipped and values trimmed', () => {
    expect(pickChannelCode(q('adChannelCode=%20&source=%20b%20'))).toBe('b');
  });
  it('none → undefined', () => {
    expect(pickChannelCode(q('adRouteCode=r1'))).toBeUndefined();
  });
  it('stores under ad_channel_code', () => {
    const store = memoryStore();
    expect(getStoredChannelCode(store)).toBeUndefined();
    setStoredChannelCode('demo', store);
    expect(store.dump()).toEqual({ ad_channel_code: 'demo' });
    expect(getStoredChannelCode(store)).toBe('demo');
  });
});
