/** A name and a resident identity number, as typed by the person (identity already upper-cased). */
export interface RealNameQuery {
  name: string;
  idNumber: string;
}

/**
 * Why the answer is what it is:
 * - `format-only`: only the number's format, region, birth date and checksum were checked (local);
 * - `match` / `mismatch` / `no-record`: the verification service's verdict;
 * - `unavailable`: the service failed (network, timeout, quota, bad AppCode).
 */
export type RealNameReason = 'format-only' | 'match' | 'mismatch' | 'no-record' | 'unavailable';

export interface RealNameResult {
  /** true/false only when an authority-backed service answered; null when nobody confirmed it. */
  verified: boolean | null;
  /** `format-only`: nothing was asked of an authority; `provider`: a verification service was asked. */
  method: 'format-only' | 'provider';
  reason?: RealNameReason;
}

/** Real-name (ID two-factor: name + number) verification. Never throws for a service outage. */
export interface RealNameProvider {
  readonly name: string;
  verify(query: RealNameQuery): Promise<RealNameResult>;
}

/** Chinese note shown with each answer: says plainly what was and was not checked. */
export const REALNAME_NOTES: Record<RealNameReason, string> = {
  'format-only': '仅校验了身份证号的格式、地区码、出生日期和校验位，未向权威机构核验姓名与身份证号是否一致',
  match: '姓名与身份证号一致（实名核验服务）',
  mismatch: '姓名与身份证号不一致（实名核验服务）',
  'no-record': '实名核验服务未查到该身份证号',
  unavailable: '实名核验服务暂不可用，未核验姓名与身份证号是否一致',
};
