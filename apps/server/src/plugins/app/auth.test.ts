import { describe, expect, it } from 'vitest';
import { platformChannelCode, platformFingerprint } from './auth.ts';

describe('platform_param', () => {
  it('reads a well-formed currentChannelCode and ignores anything else', () => {
    expect(platformChannelCode('{"channel":0,"currentChannelCode":"demo-1"}')).toBe('demo-1');
    expect(platformChannelCode('{"currentChannelCode":"bad code"}')).toBeUndefined();
    expect(platformChannelCode('{"currentChannelCode":""}')).toBeUndefined();
    expect(platformChannelCode('{"currentChannelCode":7}')).toBeUndefined();
    expect(platformChannelCode('null')).toBeUndefined();
    expect(platformChannelCode('not json')).toBeUndefined();
    expect(platformChannelCode(undefined)).toBeUndefined();
    expect(platformChannelCode(['a'])).toBeUndefined();
    expect(platformChannelCode(`{"currentChannelCode":"demo","x":"${'a'.repeat(2048)}"}`)).toBeUndefined();
  });

  it('reads the fingerprint, at most 128 characters', () => {
    expect(platformFingerprint('{"fingerprint":"abc"}')).toBe('abc');
    expect(platformFingerprint(`{"fingerprint":"${'f'.repeat(200)}"}`)).toHaveLength(128);
    expect(platformFingerprint('{"fingerprint":""}')).toBeUndefined();
    expect(platformFingerprint('not json')).toBeUndefined();
  });
});
