/**
 * How the console's 回传记录 reads (issue 47.6): the value in yuan, and the platform's answer in a line —
 * each platform answers JSON of its own shape (Ocean Engine / Tencent `{code, message}`, Kuaishou
 * `{result}`, Baidu `{header: {status, desc}}`, our envelope `{code, msg}` from a sandbox refusal).
 */

/** 1234567 fen → "12,345.67 元"; none → "—". */
export function valueText(fen: number | null): string {
  if (fen === null) return '—';
  const yuan = (fen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${yuan} 元`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const scalar = (v: unknown): string | null =>
  typeof v === 'string'
    ? v.trim() === ''
      ? null
      : v.trim()
    : typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : null;

/**
 * The platform's answer in a line: its code and its message ("代码 400：缺少 token", "代码 0：success",
 * "result 1"); text that is not JSON as it is; none → "—". The answer is stored cut at 200 characters, so a
 * JSON that does not parse is shown as text.
 */
export function answerText(answer: string | null): string {
  if (answer === null || answer.trim() === '') return '—';
  let json: unknown;
  try {
    json = JSON.parse(answer);
  } catch {
    return answer.trim();
  }
  if (!isRecord(json)) return answer.trim();
  const header = isRecord(json.header) ? json.header : {};
  const message = scalar(json.msg) ?? scalar(json.message) ?? scalar(header.desc) ?? scalar(json.desc);
  const code = scalar(json.code) ?? scalar(header.status);
  if (code !== null) return message !== null ? `代码 ${code}：${message}` : `代码 ${code}`;
  if (message !== null) return message;
  const result = scalar(json.result);
  if (result !== null) return `result ${result}`;
  return answer.trim();
}

/**
 * Why a report failed, readable: the worker writes a refusal as "HTTP 400：<the platform's answer>", shown as
 * "HTTP 400，代码 400：缺少 token"; other reasons (no answer, a platform's error code) as they are.
 */
export function errorText(lastError: string): string {
  const m = /^HTTP (\d+)：([\s\S]*)$/.exec(lastError);
  if (!m) return lastError;
  const read = answerText(m[2]!);
  return read === m[2]!.trim() ? lastError : `HTTP ${m[1]}，${read}`;
}
