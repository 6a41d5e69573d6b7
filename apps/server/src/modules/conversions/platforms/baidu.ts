import { type PlatformAdapter, statusVerdict } from './types.ts';

/**
 * Baidu oCPC (百度营销) `POST /ocpcapi/api/uploadConvertData`: `{token, conversionTypes: [{logidUrl, newType,
 * convertValue?}]}` — the landing URL carrying `bd_vid` (≤ 1024 characters), the account's `newType` code, the
 * value in fen. Accepted: `header.status: 0`. A negative signal (an invalid lead) goes to
 * `uploadInvalidConvertData` in the same shape, under the lead's own `newType`.
 */
export const baidu: PlatformAdapter = {
  origin: 'https://ocpc.baidu.com',
  request(r, base) {
    const conversion: Record<string, unknown> = {
      logidUrl: r.landingUrl.slice(0, 1024),
      newType: Number(r.eventCode),
    };
    if (r.valueFen !== null) conversion.convertValue = r.valueFen;
    return {
      method: 'POST',
      url: `${base}/ocpcapi/api/${r.negative ? 'uploadInvalidConvertData' : 'uploadConvertData'}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: r.credentials.token ?? '', conversionTypes: [conversion] }),
    };
  },
  verdict: (status, text) =>
    statusVerdict(status, text, (json) => {
      const h = (json as { header?: { status?: unknown; desc?: unknown } }).header;
      if (h?.status === 0) return { ok: true };
      return {
        ok: false,
        retry: false,
        error: `百度拒绝：${String(h?.status)} ${String(h?.desc ?? '')}`.trim(),
      };
    }),
};
