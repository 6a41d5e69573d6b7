/** Masking helper (spec §5): keeps `head` and `tail` characters, replaces the middle with asterisks. */
export function maskMiddle(value: string, head: number, tail: number): string {
  const chars = Array.from(value);
  if (chars.length <= head + tail) {
    if (chars.length <= 1) return '*'.repeat(chars.length);
    return chars[0] + '*'.repeat(chars.length - 1);
  }
  return (
    chars.slice(0, head).join('') +
    '*'.repeat(chars.length - head - tail) +
    chars.slice(chars.length - tail).join('')
  );
}

/** 13812345678 → 138****5678 */
export function maskPhone(phone: string): string {
  return maskMiddle(phone, 3, 4);
}

/** 110101199003071234 → 110***********1234 */
export function maskIdCard(id: string): string {
  return maskMiddle(id, 3, 4);
}

/** 张三丰 → 张** */
export function maskName(name: string): string {
  return maskMiddle(name, 1, 0);
}
