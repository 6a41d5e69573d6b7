import { type Envelope, LOGOUT_CODES, SUCCESS_CODE } from '@lm/shared/errors';
import { useMutation } from '@tanstack/react-query';
import { ApiError, REQUEST_TIMEOUT_MS } from '@/lib/api-client';
import { getStoredChannelCode } from '@/lib/channel/code';
import { getDeviceBrand, getFingerprint, isAppWebview } from '@/lib/device';
import { buildHeaders } from '@/lib/headers';
import { navigateTo } from '@/lib/navigation';
import type { MutationConfig } from '@/lib/react-query';
import { clearSession, getToken } from '@/lib/session';
import { getTrackReport } from '@/lib/track-report';
import { exportFileName, fileNameFromDisposition } from '../format';

export interface ExportedFile {
  fileName: string;
  bytes: number;
}

/** An export can be large: more time than an ordinary call. */
const EXPORT_TIMEOUT_MS = REQUEST_TIMEOUT_MS * 3;

function envelopeOf(text: string): Envelope<unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && typeof (value as Envelope).code === 'number') {
      return value as Envelope<unknown>;
    }
  } catch {
    // Not JSON.
  }
  return null;
}

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * GET /api/user/export — all of the person's data as a JSON file. A plain link cannot carry the
 * `accessToken` header, so the file is fetched with the API client's headers and handed to the
 * browser as a Blob. An envelope instead of an attachment is an error (its message is shown by the
 * caller); 401/1005/1006 log the person out as every other call does.
 */
export async function exportMyData(): Promise<ExportedFile> {
  const channelCode = getStoredChannelCode() ?? '';
  const headers = buildHeaders({
    token: getToken(),
    channelCode,
    deviceBrand: getDeviceBrand(),
    fingerprint: getFingerprint(),
    inAppWebview: isAppWebview(),
    trackReport: getTrackReport(channelCode),
  });
  headers.Accept = 'application/json';
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), EXPORT_TIMEOUT_MS);
  let response: Response;
  let body: Blob;
  try {
    response = await fetch('/api/user/export', {
      headers,
      signal: controller.signal,
      credentials: 'same-origin',
    });
    body = await response.blob();
  } catch {
    throw controller.signal.aborted
      ? new ApiError(0, '导出超时，请稍后重试', null, 'TIMEOUT_ERROR')
      : new ApiError(0, '网络连接错误', null, 'NETWORK_ERROR');
  } finally {
    clearTimeout(timer);
  }

  const disposition = response.headers.get('content-disposition');
  if (response.ok && disposition && /attachment/i.test(disposition)) {
    const fileName = fileNameFromDisposition(disposition, exportFileName());
    saveBlob(new Blob([body], { type: 'application/json;charset=utf-8' }), fileName);
    return { fileName, bytes: body.size };
  }

  const envelope = envelopeOf(await body.text());
  if (envelope && envelope.code === SUCCESS_CODE && envelope.data !== undefined) {
    // Served inline as an envelope: the data is the export.
    const fileName = exportFileName();
    saveBlob(
      new Blob([JSON.stringify(envelope.data, null, 2)], { type: 'application/json;charset=utf-8' }),
      fileName,
    );
    return { fileName, bytes: body.size };
  }
  const msg = envelope?.msg || '导出失败，请稍后重试';
  const code = envelope?.code ?? response.status;
  if (envelope && LOGOUT_CODES.includes(envelope.code)) {
    clearSession();
    const channel = getStoredChannelCode();
    navigateTo(channel ? `/getQuota?adChannelCode=${encodeURIComponent(channel)}` : '/getQuota', {
      replace: true,
    });
  }
  throw new ApiError(code, msg, envelope?.data ?? null);
}

export function useExportMyData(config?: MutationConfig<typeof exportMyData>) {
  return useMutation({ ...config, mutationFn: exportMyData });
}
