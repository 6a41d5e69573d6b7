import { fenToYuanText } from '@lm/shared/money';
import { codeZeroVerdict, type PlatformAdapter } from './types.ts';

/**
 * Ocean Engine (巨量引擎) conversion API: `POST /api/v2/conversion` with the click's `clickid` (landing-page
 * attribution; a monitoring link's `callback` otherwise) as `context.ad.callback`, the time in ms, and the
 * amount in yuan as `properties.pay_amount`. Accepted: `code: 0`.
 */
export const oceanengine: PlatformAdapter = {
  origin: 'https://analytics.oceanengine.com',
  request(r, base) {
    const callback = r.clickParams.clickid ?? r.clickParams.callback ?? '';
    const body: Record<string, unknown> = {
      event_type: r.eventCode,
      context: { ad: { callback } },
      timestamp: r.happenedAt.getTime(),
    };
    if (r.valueFen !== null) body.properties = { pay_amount: Number(fenToYuanText(r.valueFen)) };
    return {
      method: 'POST',
      url: `${base}/api/v2/conversion`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    };
  },
  verdict: codeZeroVerdict('巨量引擎'),
};
