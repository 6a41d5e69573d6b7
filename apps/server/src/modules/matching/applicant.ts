import { ageFromIdCard, checkIdCard } from '@lm/shared/validators/id-card';
import type { Explanation } from './reasons.ts';
import type { CreditRecord, Job, Profile, Reason } from './types.ts';
import { SESAME_ORDER } from './types.ts';

/** The applicant as the checks read them: once per call, with the reasons made for them. */

/** Bits of the jobs and credit records a table keeps for a rule's list; DECLARED marks a list present. */
export const JOB_BIT: Readonly<Record<Job, number>> = {
  employee: 1,
  selfEmployed: 2,
  businessOwner: 4,
  freelancer: 8,
};
export const CREDIT_BIT: Readonly<Record<CreditRecord, number>> = {
  none: 1,
  good: 2,
  fewOverdues: 4,
  manyOverdues: 8,
};
const DECLARED = 16;

/**
 * The bits of the known values a list (a rule's `jobs` or `creditRecord`, present) includes, with
 * DECLARED: what `list.includes(value)` answers for each known value. An array's other elements can
 * match no applicant (an applicant's job and credit record are known values); a list that is not an
 * array answers through its own `includes` (a string, as `String.prototype.includes`; a value without
 * one throws the TypeError the rule would).
 */
export function listBits(list: unknown, bits: Readonly<Record<string, number>>): number {
  let mask = DECLARED;
  if (Array.isArray(list)) {
    for (let k = 0; k < list.length; k++) {
      const value = list[k];
      if (typeof value === 'string' && Object.hasOwn(bits, value)) mask |= bits[value]!;
    }
    return mask;
  }
  const includes = (list as { includes: (value: string) => boolean }).includes;
  for (const value in bits) if (includes.call(list, value)) mask |= bits[value]!;
  return mask;
}

/** The bit of one value, 0 for anything else. */
const bitOf = (value: unknown, bits: Readonly<Record<string, number>>) =>
  typeof value === 'string' && Object.hasOwn(bits, value) ? bits[value]! : 0;

/** Reasons (or explanations) made in one call, by the two values their text depends on (a rule's bounds). */
export type ByPair<T> = Map<unknown, Map<unknown, T>>;
export type ReasonsByPair = ByPair<Reason>;

export function remembered<T>(cache: ByPair<T>, x: unknown, y: unknown): T | undefined {
  return cache.get(x)?.get(y);
}

export function remember<T>(cache: ByPair<T>, x: unknown, y: unknown, reason: T): T {
  let inner = cache.get(x);
  if (inner === undefined) {
    inner = new Map();
    cache.set(x, inner);
  }
  inner.set(y, reason);
  return reason;
}

/** What the checks need of the applicant, and the reasons made for them, once per call. */
export interface Applicant {
  profile: Profile;
  age: number | null;
  city: string;
  /** First two code units of the city, or null when it is shorter (no province code covers it then). */
  province: string | null;
  amountFen: number;
  /** Has social security, housing fund, insurance, house, car (REQUIREMENTS order). */
  has: readonly [boolean, boolean, boolean, boolean, boolean];
  /** The same as bits. */
  hasBits: number;
  jobBit: number;
  creditBit: number;
  sesameIndex: number;
  /** SESAME_TOO_LOW by index of the band required, made on first use; likewise the following. */
  sesameFail: (Reason | undefined)[];
  /** AGE_OUT_OF_RANGE by ageMin, ageMax. */
  ageFail: ReasonsByPair;
  /** AMOUNT_OUT_OF_RANGE by amountMinFen, amountMaxFen; OUTSIDE_ACTIVE_HOURS by from, to. */
  amountFail: ReasonsByPair;
  hoursFail: ReasonsByPair;
  /** The explanations of the age, amount and Sesame rules, likewise. */
  agePass: ByPair<Explanation>;
  amountPass: ByPair<Explanation>;
  sesamePass: Explanation | undefined;
}

export function applicant(profile: Profile, age: number | null): Applicant {
  const city = profile.workCityCode;
  const has = [
    profile.socialSecurity !== 'none',
    profile.housingFund !== 'none',
    profile.insurance !== 'none',
    profile.houseProperty !== 'none',
    profile.carProperty !== 'none',
  ] as const;
  let hasBits = 0;
  for (let i = 0; i < has.length; i++) if (has[i]) hasBits |= 1 << i;
  return {
    profile,
    age,
    city,
    province: city.length >= 2 ? city.slice(0, 2) : null,
    amountFen: profile.applyLimitFen,
    has,
    hasBits,
    jobBit: bitOf(profile.job, JOB_BIT),
    creditBit: bitOf(profile.creditInvestigation, CREDIT_BIT),
    sesameIndex: SESAME_ORDER.indexOf(profile.sesameCredit),
    sesameFail: [],
    ageFail: new Map(),
    amountFail: new Map(),
    hoursFail: new Map(),
    agePass: new Map(),
    amountPass: new Map(),
    sesamePass: undefined,
  };
}

/** Age from a valid ID at `now` (Shanghai calendar), else the stated age, else null (unknown). */
export function profileAge(profile: Profile, now: Date): number | null {
  if (profile.identity && checkIdCard(profile.identity, now) === null)
    return ageFromIdCard(profile.identity, now);
  return typeof profile.age === 'number' && Number.isFinite(profile.age) ? profile.age : null;
}
