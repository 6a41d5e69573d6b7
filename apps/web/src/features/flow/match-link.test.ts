import { describe, expect, it } from 'vitest';
import { MATCH_LINK_PARAMS, matchLinkOptions } from './match-link';
import { buildNavigationUrl } from './url';

const KEY = 'm1.AbCdEfGhIjKlMnOpQrStUv';

describe('matchLinkOptions (issue 44.6: only the key in a URL)', () => {
  it('keeps the channel code and the match key', () => {
    expect(matchLinkOptions({ adChannelCode: 'demo', matchKey: KEY })).toEqual({
      adChannelCode: 'demo',
      matchKey: KEY,
    });
  });

  it('drops the form answers, the device and the result a link or a decision may hold', () => {
    const options = matchLinkOptions({
      adChannelCode: 'demo',
      matchKey: KEY,
      applyLimit: 2,
      workCity: '广州市',
      workCityCode: '440100',
      realName: '张三',
      identity: '110101199003074514',
      isHuaWeiPhone: true,
      rqResult: { productName: '某某小额贷款' },
    });
    expect(Object.keys(options).sort()).toEqual([...MATCH_LINK_PARAMS].sort());
    const url = decodeURIComponent(buildNavigationUrl('/fill-information/common-authorize', options));
    for (const answer of ['applyLimit', 'workCity', '广州市', '440100', '张三', '1101011990', 'rqResult']) {
      expect(url).not.toContain(answer);
    }
  });

  it('leaves out empty and non-text values', () => {
    expect(matchLinkOptions({ adChannelCode: '  ', matchKey: null })).toEqual({});
    expect(matchLinkOptions({ adChannelCode: 7, matchKey: { k: 1 } })).toEqual({});
    expect(matchLinkOptions({ adChannelCode: ' demo ' })).toEqual({ adChannelCode: 'demo' });
  });
});
