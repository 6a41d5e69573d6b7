import { describe, expect, it } from 'vitest';
import { checkInlineUrl } from './allowed-url';
import {
  CONSENT_SESSION_KEYS,
  normalizePartnerUrl,
  parseAuthAnswer,
  readConsents,
  recordConsent,
  redirectTargets,
  vouchedPartnerUrls,
  vouchPartnerUrl,
} from './consent-result';
import { API_CONSENT } from './test-fixtures';

function memoryStore() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
  };
}

/** authData of @lm/shared: one API lender, one H5-redirect lender, one declined. */
const answer = {
  submitStatus: 10,
  consented: [
    API_CONSENT,
    {
      productId: '14',
      productName: '南湖e贷',
      consentId: 2,
      mode: 'h5Redirect',
      thirdpartyTargetUrl: 'https://partner-e.example.com/form',
    },
  ],
  declined: ['9'],
};

describe('parseAuthAnswer', () => {
  it('reads the consented items and the declined ids', () => {
    const parsed = parseAuthAnswer(answer);
    expect(parsed.submitStatus).toBe(10);
    expect(parsed.consented.map((c) => [c.productId, c.mode])).toEqual([
      ['3', 'api'],
      ['14', 'h5Redirect'],
    ]);
    expect(parsed.declined).toEqual(['9']);
    // Every result names the lender and the APR (issue 6).
    expect(parsed.consented[0]).toMatchObject({ lenderName: '星河消费金融有限公司', aprBps: 1800 });
    expect(parsed.consented[1]).toMatchObject({ lenderName: null, aprBps: null });
  });

  it('is lenient with missing or malformed parts', () => {
    expect(parseAuthAnswer(null)).toEqual({ submitStatus: null, consented: [], declined: [] });
    expect(parseAuthAnswer({ consented: [{ productId: 5 }, { x: 1 }, 'y'] }).consented).toEqual([
      {
        productId: '5',
        productName: '合作机构',
        lenderName: null,
        aprBps: null,
        consentId: null,
        mode: 'api',
        thirdpartyTargetUrl: null,
      },
    ]);
  });
});

describe('redirect targets and vouched partner URLs', () => {
  it('only H5-redirect consents with an https URL get "去申请"', () => {
    const items = parseAuthAnswer({
      consented: [
        ...answer.consented,
        {
          productId: '20',
          productName: 'x',
          mode: 'h5Redirect',
          thirdpartyTargetUrl: 'http://partner-f.example.com',
        },
        { productId: '21', productName: 'y', mode: 'h5Redirect', thirdpartyTargetUrl: 'javascript:alert(1)' },
        {
          productId: '22',
          productName: 'z',
          mode: 'api',
          thirdpartyTargetUrl: 'https://partner-a.example.com/a',
        },
      ],
    }).consented;
    expect(redirectTargets(items)).toEqual([
      { productName: '南湖e贷', url: 'https://partner-e.example.com/form' },
    ]);
  });

  it('normalises like checkInlineUrl and refuses credentials and other schemes', () => {
    expect(normalizePartnerUrl(' https://Partner-E.example.com/form ')).toBe(
      'https://partner-e.example.com/form',
    );
    expect(normalizePartnerUrl('https://u:p@partner-e.example.com/')).toBeNull();
    expect(normalizePartnerUrl('data:text/html,x')).toBeNull();
    expect(normalizePartnerUrl('')).toBeNull();
  });

  it('recordConsent keeps the consents (first and second authorisation) and vouches the redirect URLs', () => {
    const store = memoryStore();
    recordConsent(parseAuthAnswer(answer), store);
    recordConsent(
      parseAuthAnswer({
        consented: [
          { productId: '30', productName: '二次', consentId: 3, mode: 'callback', thirdpartyTargetUrl: null },
        ],
      }),
      store,
    );
    expect(readConsents(store).map((c) => c.productId)).toEqual(['3', '14', '30']);
    expect(vouchedPartnerUrls(store)).toEqual(['https://partner-e.example.com/form']);
    expect(store.map.has(CONSENT_SESSION_KEYS.authorizeResult)).toBe(true);
  });

  it('a vouched URL opens in /inline-page; the rest of its host and other hosts do not', () => {
    const store = memoryStore();
    vouchPartnerUrl('https://partner-a.example.com/apply?from=lm', store);
    vouchPartnerUrl('http://partner-b.example.com/', store);
    vouchPartnerUrl('https://partner-a.example.com/apply?from=lm', store);
    const vouched = vouchedPartnerUrls(store);
    expect(vouched).toEqual(['https://partner-a.example.com/apply?from=lm']);
    const channelHosts = ['partner.example.com'];
    expect(
      checkInlineUrl('https://partner-a.example.com/apply?from=lm', channelHosts, vouched),
    ).toMatchObject({
      ok: true,
      host: 'partner-a.example.com',
    });
    expect(
      checkInlineUrl(
        encodeURIComponent('https://partner-a.example.com/apply?from=lm'),
        channelHosts,
        vouched,
      ),
    ).toMatchObject({ ok: true });
    expect(checkInlineUrl('https://partner-a.example.com/other', channelHosts, vouched)).toMatchObject({
      ok: false,
      reason: 'not-allowed',
    });
    expect(checkInlineUrl('https://evil.example.com/apply?from=lm', channelHosts, vouched)).toMatchObject({
      ok: false,
    });
    expect(checkInlineUrl('https://partner.example.com/x', channelHosts, vouched)).toMatchObject({
      ok: true,
    });
  });

  it('survives unreadable storage', () => {
    expect(vouchedPartnerUrls({ getItem: () => '{oops' })).toEqual([]);
    expect(readConsents(null)).toEqual([]);
  });
});
