/**
 * Chinese resident identity number (GB 11643-1999), spec §5.
 * 18 characters: 6-digit region code, 8-digit birth date, 3-digit sequence, check character.
 */
import { shanghaiClock } from '../time.ts';

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const CHECK_CHARS = ['1', '0', 'X', '9', '8', '7', '6', '5', '4', '3', '2'] as const;

/** First two digits of valid region codes: provinces, municipalities, autonomous regions, TW, HK, MO. */
export const PROVINCE_PREFIXES: ReadonlySet<string> = new Set([
  '11',
  '12',
  '13',
  '14',
  '15',
  '21',
  '22',
  '23',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
  '41',
  '42',
  '43',
  '44',
  '45',
  '46',
  '50',
  '51',
  '52',
  '53',
  '54',
  '61',
  '62',
  '63',
  '64',
  '65',
  '71',
  '81',
  '82',
]);

export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK_CHARS[sum % 11]!;
}

function parseBirth(yyyymmdd: string): Date | null {
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date;
}

export type IdCardProblem = 'format' | 'region' | 'birth' | 'checksum';

/** Returns null when valid, else what is wrong. `now` is injectable for tests. */
export function checkIdCard(value: string, now: Date = new Date()): IdCardProblem | null {
  const id = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return 'format';
  if (!PROVINCE_PREFIXES.has(id.slice(0, 2))) return 'region';
  const birth = parseBirth(id.slice(6, 14));
  if (!birth || birth.getTime() > now.getTime() || birth.getUTCFullYear() < 1900) return 'birth';
  if (idCardCheckChar(id.slice(0, 17)) !== id[17]) return 'checksum';
  return null;
}

export function isValidIdCard(value: unknown, now?: Date): value is string {
  return typeof value === 'string' && checkIdCard(value, now) === null;
}

export const ID_CARD_MESSAGES: Record<IdCardProblem, string> = {
  format: '身份证号应为18位，最后一位可以是数字或X',
  region: '身份证号的地区码无效',
  birth: '身份证号中的出生日期无效',
  checksum: '身份证号校验位不正确',
};

/** Age helper (spec §5): accepts 15- or 18-character numbers, otherwise 0. */
export function ageFromIdCard(value: string, now: Date = new Date()): number {
  let birth: string;
  if (value.length === 18) birth = value.slice(6, 14);
  else if (value.length === 15) birth = `19${value.slice(6, 12)}`;
  else return 0;
  const y = Number(birth.slice(0, 4));
  const m = Number(birth.slice(4, 6));
  const d = Number(birth.slice(6, 8));
  if (!y || !m || !d) return 0;
  // Calendar in Asia/Shanghai (UTC+8, no DST).
  const cn = shanghaiClock(now.getTime());
  let age = cn.getUTCFullYear() - y;
  const beforeBirthday = cn.getUTCMonth() + 1 < m || (cn.getUTCMonth() + 1 === m && cn.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return Math.max(age, 0);
}

/** Gender from the parity of the second-to-last digit (18) or last digit (15): odd 1 (male), even 2 (female). */
export function genderFromIdCard(value: string): 1 | 2 | 0 {
  let digit: string | undefined;
  if (value.length === 18) digit = value[16];
  else if (value.length === 15) digit = value[14];
  if (digit === undefined || !/\d/.test(digit)) return 0;
  return Number(digit) % 2 === 1 ? 1 : 2;
}
