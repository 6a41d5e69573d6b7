import { fenToYuanText } from '@lm/shared/money';
import { type PlatformAdapter, statusVerdict } from './types.ts';

/**
 * Kuaishou (磁力引擎) callback: `GET /track/activate?callback=…&event_type=N&event_time=<ms>` with
 * `purchase_amount` in yuan (two decimals) where a value goes. Accepted: `result: 1`.
 */
export const kuaishou: PlatformAdapter = {
  origin: 'https://ad.partner.gifshow.com',
  request(r, base) {
    const q = new URLSearchParams({
      callback: r.clickParams.callback ?? '',
      event_type: r.eventCode,
      event_time: String(r.happenedAt.getTime()),
    });
    if (r.valueFen !== null) q.set('purchase_amount', fenToYuanText(r.valueFen));
    return { method: 'GET', url: `${base}/track/activate?${q.toString()}`, headers: {} };
  },
  verdict: (status, text) =>
    statusVerdict(status, text, (json) => {
      const j = json as { result?: unknown; error_msg?: unknown };
      if (j.result === 1) return { ok: true };
      return {
        ok: false,
        retry: false,
        error: `快手拒绝：${String(j.result)} ${String(j.error_msg ?? '')}`.trim(),
      };
    }),
};
