import { describe, expect, it } from 'vitest';
import type { ConsentedItem } from './consent-result';
import { readQueryOptions } from './query-options';
import { consentModeText, resultContent } from './result-content';
import { resultPageTitle } from './result-title';
import { API_CONSENT } from './test-fixtures';

const consent: ConsentedItem = API_CONSENT;
const q = (s: string) => readQueryOptions(s);

describe('result page options (spec §2)', () => {
  it('after a consent: submitted to the lenders consented to, listed', () => {
    const c = resultContent(q('?rePageShowType=0'), [consent]);
    expect(c).toMatchObject({
      status: 'success',
      title: '申请已提交',
      showConsents: true,
      showDownload: false,
    });
    expect(c.description).toContain('1家机构');
  });

  it('isNotFormReq: never says an application was submitted', () => {
    const c = resultContent(q('?isNotFormReq=1'), []);
    expect(c.title).toBe('暂未匹配到合适的机构');
    expect(c.description).not.toContain('已提交');
    expect(resultContent(q('?isNotFormReq=true'), [consent]).showConsents).toBe(false);
  });

  it('revisit with isNotFormReq and rePageShowType (spec §4 step 6 query)', () => {
    const c = resultContent(q('?isNotFormReq=true&revisit=true&rePageShowType=2'), []);
    expect(c).toMatchObject({ title: '欢迎回来', showDownload: true });
    expect(resultContent(q('?revisit=1'), []).title).toBe('欢迎回来');
  });

  it('rePageShowType 2 shows the download guide, anything else not', () => {
    expect(resultContent(q('?rePageShowType=2'), []).showDownload).toBe(true);
    expect(resultContent(q('?rePageShowType=0'), []).showDownload).toBe(false);
    expect(resultContent(q(''), []).showDownload).toBe(false);
  });

  it('isSpecialListCity wins: the city is not served, nothing listed', () => {
    const c = resultContent(q('?isSpecialListCity=true&revisit=1'), [consent]);
    expect(c).toMatchObject({ status: 'info', title: '您所在城市暂未开通', showConsents: false });
    expect(resultContent(q('?isSpecialListCity=false'), []).title).toBe('提交成功');
  });

  it('registered (registerLink): says registration happened, never a submission', () => {
    const withPartner = resultContent(q('?isSpecialListCity=false&registered=true'), [], true);
    expect(withPartner).toMatchObject({
      status: 'success',
      title: '注册成功',
      description: '您已完成注册，点击前往合作机构继续申请。',
      showPartner: true,
      showConsents: false,
    });
    const alone = resultContent(q('?isSpecialListCity=false&registered=true'), [consent], false);
    expect(alone).toMatchObject({ title: '注册成功', showPartner: false, showConsents: false });
    for (const c of [withPartner, alone]) {
      expect(`${c.title}${c.description}`).not.toMatch(/提交成功|已提交至|申请已提交/);
    }
  });

  it('registered in a city not served: the city wording, no partner button', () => {
    const c = resultContent(q('?isSpecialListCity=true&registered=true'), [], true);
    expect(c).toMatchObject({ title: '您所在城市暂未开通', showPartner: false });
  });

  it('a real submission still says 提交成功, with no partner button', () => {
    const c = resultContent(q('?rePageShowType=0'), [], true);
    expect(c).toMatchObject({ title: '提交成功', showPartner: false });
  });

  it('options packed in one JSON parameter are read too', () => {
    const c = resultContent(q(`?options=${encodeURIComponent('{"isNotFormReq":1,"revisit":1}')}`), []);
    expect(c.title).toBe('欢迎回来');
  });

  it('a sold-out re-match (applyStatus=0) asks for the alert and says so', () => {
    const c = resultContent(q('?isNotFormReq=true&revisit=true&applyStatus=0'), []);
    expect(c).toMatchObject({ soldOut: true, alertSoldOut: true, title: '今日名额已满' });
    expect(resultContent(q('?applyStatus=1'), []).soldOut).toBe(false);
    expect(resultContent(q(''), []).soldOut).toBe(false);
  });

  it('sold out after the form (soldOut=1): the wording, no second alert', () => {
    const c = resultContent(q('?isNotFormReq=1&soldOut=1'), []);
    expect(c).toMatchObject({ soldOut: true, alertSoldOut: false, title: '今日名额已满' });
  });

  it('a re-match already registered (applyStatus=2) asks for the confirm on arrival', () => {
    expect(resultContent(q('?isNotFormReq=true&revisit=true&applyStatus=2'), [])).toMatchObject({
      confirmRegistered: true,
      soldOut: false,
      title: '欢迎回来',
    });
    expect(resultContent(q('?revisit=1'), []).confirmRegistered).toBe(false);
  });

  it('lenders may call only when one may have the data: never after sold out, nothing matched or a registration', () => {
    const mayCall = (s: string, consents: ConsentedItem[] = []) =>
      resultContent(q(s), consents).lendersMayCall;
    expect(mayCall('?rePageShowType=0', [consent])).toBe(true);
    expect(mayCall('?rePageShowType=0')).toBe(true);
    expect(mayCall('?revisit=1')).toBe(true);
    expect(mayCall('?isNotFormReq=true&revisit=true')).toBe(true);
    expect(mayCall('?isNotFormReq=1&soldOut=1')).toBe(false);
    expect(mayCall('?isNotFormReq=true&revisit=true&applyStatus=0')).toBe(false);
    expect(mayCall('?isNotFormReq=1')).toBe(false);
    expect(mayCall('?isSpecialListCity=false&registered=true', [consent])).toBe(false);
    expect(mayCall('?isSpecialListCity=true')).toBe(false);
  });

  it('the retention popup promises no progress or call when nothing was sent', () => {
    expect(resultContent(q('?rePageShowType=0'), [consent]).retention).toBeUndefined();
    for (const s of ['?isNotFormReq=1&soldOut=1', '?isNotFormReq=1', '?registered=true']) {
      const copy = resultContent(q(s), []).retention;
      expect(copy, s).toEqual({
        description: '您的资料已保存。下载App，随时查看可申请的机构。',
        download: '下载App',
      });
      expect(`${copy!.description}${copy!.download}`).not.toMatch(/进度|机构联系/);
    }
  });

  it('the page is titled 注册结果 after registerLink (nothing applied for), else 申请结果', () => {
    expect(resultPageTitle(q('?isSpecialListCity=false&registered=true'))).toBe('注册结果');
    expect(resultPageTitle(q('?isSpecialListCity=true&registered=true'))).toBe('注册结果');
    expect(resultPageTitle(q(`?options=${encodeURIComponent('{"registered":true}')}`))).toBe('注册结果');
    expect(resultPageTitle(q('?rePageShowType=0'))).toBe('申请结果');
    expect(resultPageTitle(q('?isNotFormReq=1&soldOut=1'))).toBe('申请结果');
    expect(resultPageTitle(q('?registered=false'))).toBe('申请结果');
  });

  it('one line per consent mode', () => {
    expect(consentModeText('api')).toContain('资料已提交');
    expect(consentModeText('h5Redirect')).toContain('机构页面');
    expect(consentModeText('callback')).toContain('等待');
  });
});
