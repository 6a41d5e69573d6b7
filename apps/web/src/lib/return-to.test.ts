import { describe, expect, it } from 'vitest';
import { loginPathFor, returnToOf, safeReturnTo } from './return-to';

describe('safeReturnTo (issue 16.4: no open redirect)', () => {
  it('keeps an internal path with its query and hash', () => {
    expect(safeReturnTo('/fill-information?adChannelCode=demo')).toBe('/fill-information?adChannelCode=demo');
    expect(safeReturnTo('/my/personal-data#top')).toBe('/my/personal-data#top');
    expect(safeReturnTo('/fill-information-three')).toBe('/fill-information-three');
  });

  it.each([
    ['absolute URL', 'https://evil.example/phish'],
    ['scheme-relative', '//evil.example/x'],
    ['backslash host', '/\\evil.example'],
    ['tab trick', '/\t/evil.example'],
    ['newline', '/fill\n-information'],
    ['javascript:', 'javascript:alert(1)'],
    ['relative path', 'fill-information'],
    ['empty', ''],
    ['null', null],
    ['too long', `/${'a'.repeat(2001)}`],
  ])('refuses %s', (_name, raw) => {
    expect(safeReturnTo(raw)).toBeNull();
  });

  it('refuses the login pages themselves (no loop back to the SMS form)', () => {
    for (const page of ['/', '/login?x=1', '/getQuota', '/getQuota/', '/h5', '/download']) {
      expect(safeReturnTo(page)).toBeNull();
    }
  });
});

describe('loginPathFor', () => {
  it('carries the channel code and the page to return to', () => {
    const path = loginPathFor('demo', '/fill-information?a=1');
    expect(path).toBe('/getQuota?adChannelCode=demo&returnTo=%2Ffill-information%3Fa%3D1');
    expect(returnToOf(path.slice(path.indexOf('?')))).toBe('/fill-information?a=1');
  });

  it('leaves out what is absent or unsafe', () => {
    expect(loginPathFor(null)).toBe('/getQuota');
    expect(loginPathFor('', '//evil.example')).toBe('/getQuota');
    expect(loginPathFor('demo', 'https://evil.example')).toBe('/getQuota?adChannelCode=demo');
  });
});
