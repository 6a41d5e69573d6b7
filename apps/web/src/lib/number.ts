/**
 * 200000 → "200,000" (what `toLocaleString('en-US')` gives for an integer), without Intl: the first
 * `toLocaleString` of a page loads ICU's number formatting, some 80 ms of main thread at CPU ×4 — a
 * long task in the landing's first render (issue 17.4).
 */
export function groupThousands(n: number): string {
  const sign = n < 0 ? '-' : '';
  const digits = String(Math.abs(Math.round(n)));
  return sign + digits.replace(/\B(?=(\d{3})+$)/g, ',');
}
