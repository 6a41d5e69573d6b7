import type { AdPlatform } from '@lm/shared/ad-clicks';

/** One conversion to report, as an adapter builds its request from it (nothing personal: issue 47.7). */
export interface ReportToSend {
  platform: AdPlatform;
  eventCode: string;
  /** A negative signal (an invalid lead, issue 47.3): Baidu takes it at its own endpoint. */
  negative: boolean;
  /** The click's parameters from the landing URL (CLICK_ID_PARAMS of the platform). */
  clickParams: Record<string, string>;
  /** The value in fen, null when none goes. */
  valueFen: number | null;
  happenedAt: Date;
  /** The channel's credentials for the platform (decrypted). */
  credentials: Record<string, string>;
  /** The landing URL of the click (Baidu's logidUrl): our origin, the channel and the click parameters. */
  landingUrl: string;
  /** Unique per attempt (Tencent's nonce). */
  nonce: string;
  /** The time of the attempt. */
  now: Date;
}

/** The HTTP request an adapter asks for: against `base` (the platform's origin, or the local sandbox). */
export interface PlatformRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** How a platform's answer reads: accepted, worth another attempt, or refused for good. */
export type PlatformVerdict = { ok: true } | { ok: false; retry: boolean; error: string };

export interface PlatformAdapter {
  /** The platform's production origin (docs/conversions.md). */
  origin: string;
  request(r: ReportToSend, base: string): PlatformRequest;
  verdict(status: number, text: string): PlatformVerdict;
}

/** The verdict of an HTTP status alone: 5xx and 429 retried, other non-2xx refused, 2xx read by `body`. */
export function statusVerdict(
  status: number,
  text: string,
  body: (json: unknown) => PlatformVerdict,
): PlatformVerdict {
  const short = text.slice(0, 200);
  if (status === 429 || status >= 500) return { ok: false, retry: true, error: `HTTP ${status}` };
  if (status < 200 || status >= 300)
    return { ok: false, retry: status === 408, error: `HTTP ${status}：${short}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, retry: true, error: `平台应答不是 JSON：${short}` };
  }
  return body(json);
}

/** The verdict of an API that answers `{code: 0}` when it accepted (Ocean Engine, Tencent). */
export const codeZeroVerdict =
  (name: string) =>
  (status: number, text: string): PlatformVerdict =>
    statusVerdict(status, text, (json) => {
      const j = json as { code?: unknown; message?: unknown };
      if (j.code === 0) return { ok: true };
      return {
        ok: false,
        retry: false,
        error: `${name}拒绝：${String(j.code)} ${String(j.message ?? '')}`.trim(),
      };
    });
