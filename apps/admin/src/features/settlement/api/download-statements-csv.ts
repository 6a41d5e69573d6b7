import { ApiError } from '@/lib/api-client';
import { getAdminToken } from '@/lib/auth';

/**
 * GET /api/admin/settlement/statements.csv?month= — the month's statements as the server writes them (UTF-8 with
 * BOM, amounts in yuan; a viewer's without amounts), saved as 对账单-YYYY-MM.csv.
 */
export async function downloadStatementsCsv(month: string): Promise<void> {
  const token = getAdminToken();
  const res = await fetch(`/api/admin/settlement/statements.csv?month=${encodeURIComponent(month)}`, {
    headers: token ? { accessToken: token } : {},
  });
  if (!res.ok) {
    let msg = '导出失败，请稍后再试';
    try {
      msg = ((await res.json()) as { msg?: string }).msg ?? msg;
    } catch {
      // Not the envelope: keep the generic message.
    }
    throw new ApiError(res.status, msg);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `对账单-${month}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
