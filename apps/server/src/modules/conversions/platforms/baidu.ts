import { type PlatformAdapter, statusVerdict } from './types.ts';

/**
 * Baidu oCPC (百度营销) `POST /ocpcapi/api/uploadConvertData`: `{token, conversionTypes: [{logidUrl, newType,
 * convertValue?}]}` — the landing URL carrying `bd_vid` (≤ 1024 characters), the account's `newType` code, the
 * value in fen. Accepted: `header.status: 0`. A negative signal (an invalid lead) goes to
 * `uploadInvalidConvertData` as `{token, invalidConversionTypes: [{logidUrl, convertType, convertTime}]}`: the
 * lead's own type and the time (s) of the conversion it corrects.
 */
export const baidu: PlatformAdapter = {
  origin: 'https://ocpc.baidu.com',
  request(r, base) {
    const logidUrl = r.landingUrl.slice(0, 1024);
    const token = r.credentials.token ?? '';
    if (r.negative)
      return {
        method: 'POST',
        url: `${base}/ocpcapi/api/uploadInvalidConvertData`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          token,
          invalidConversionTypes: [
            {
              logidUrl,
              convertType: Number(r.eventCode),
              convertTime: Math.floor(r.happenedAt.getTime() / 1000),
            },
          ],
        }),
      };
    const conversion: Record<string, unknown> = { logidUrl, newType: Number(r.eventCode) };
    if (r.valueFen !== null) conversion.convertValue = r.valueFen;
    return {
      method: 'POST',
      url: `${base}/ocpcapi/api/uploadConvertData`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, conversionTypes: [conversion] }),
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
