/**
 * The automatic form (spec §4 "Auto-form status", §5; Haier, /fill-information/waiting-result), as
 * pure rules.
 *
 * Which channels: spec §5 limits it to "two specific channel codes" without naming them. Channels
 * carry it as the `haier` feature flag (@lm/shared/channel KNOWN_FLAGS; the post-login decision reads
 * the same flag, features/flow/decide.ts isAutoFormUsable), so operators switch it on per channel; the
 * demo seed has one such channel, demo-haier.
 *
 * What it does: it pre-selects the option questions at random (spec §5, never applyLimit 4) and
 * SHOWS the whole form for the person to confirm or change. Real name, ID number and work city are
 * never pre-filled: the person types them. Nothing is sent until the person taps submit (then with
 * `autoForm: true`).
 */
import { LinkType } from '@lm/shared/channel';
import {
  APPLY_LIMIT_OPTIONS,
  CAR_PROPERTY_OPTIONS,
  CREDIT_INVESTIGATION_OPTIONS,
  HOUSE_PROPERTY_OPTIONS,
  HOUSING_FUND_OPTIONS,
  INSURANCE_OPTIONS,
  JOB_OPTIONS,
  type Option,
  PAYOFF_FORM_OPTIONS,
  SESAME_CREDIT_OPTIONS,
  SOCIAL_SECURITY_OPTIONS,
} from '@/config/form-options';

export const AUTO_FORM_FLAG = 'haier';

/** applyLimit 4 (10–20万) is never picked (spec §5). */
export const AUTO_FORM_EXCLUDED_APPLY_LIMIT = 4;

/** The option questions of the application form, with the codes the automatic form may pick. */
export const AUTO_FORM_OPTIONS = {
  applyLimit: APPLY_LIMIT_OPTIONS.filter((o) => o.value !== AUTO_FORM_EXCLUDED_APPLY_LIMIT),
  job: JOB_OPTIONS,
  payoffForm: PAYOFF_FORM_OPTIONS,
  socialSecurity: SOCIAL_SECURITY_OPTIONS,
  housingFund: HOUSING_FUND_OPTIONS,
  insurance: INSURANCE_OPTIONS,
  houseProperty: HOUSE_PROPERTY_OPTIONS,
  carProperty: CAR_PROPERTY_OPTIONS,
  sesameCredit: SESAME_CREDIT_OPTIONS,
  creditInvestigation: CREDIT_INVESTIGATION_OPTIONS,
} as const satisfies Record<string, Option[]>;

export type AutoFormField = keyof typeof AUTO_FORM_OPTIONS;
export type AutoFormAnswers = Record<AutoFormField, number>;

/** A random number in [0, 1) (Math.random, or a seeded one in tests). */
export type Rng = () => number;

/** One option of `options` at random. */
export function pickOption<V extends string | number>(options: readonly Option<V>[], rng: Rng): V {
  if (options.length === 0) throw new RangeError('no options to pick from');
  const r = rng();
  const i = Math.min(
    options.length - 1,
    Math.max(0, Math.floor((Number.isFinite(r) ? r : 0) * options.length)),
  );
  return options[i]!.value;
}

/** Random answers for every option question; never applyLimit 4. */
export function pickAutoFormAnswers(rng: Rng = Math.random): AutoFormAnswers {
  const out = {} as AutoFormAnswers;
  for (const field of Object.keys(AUTO_FORM_OPTIONS) as AutoFormField[]) {
    out[field] = pickOption<number>(AUTO_FORM_OPTIONS[field], rng);
  }
  return out;
}

export interface AutoFormFacts {
  flags: readonly string[];
  /** The fresh link type (channel detail), else h5Config's. */
  linkType: number;
  excludeCityCodes: readonly string[];
  /** The person's city (six-digit code) as located, when known. */
  cityCode: string | null;
  /** The location answer said the channel does not serve the city. */
  cityExcluded?: boolean;
}

/**
 * isUseful (spec §4, §5): only on an automatic-form channel; false when the link type is 1 (H5
 * redirect) or the person's city is in the channel's excludeCityCodes.
 */
export function isAutoFormUseful(facts: AutoFormFacts): boolean {
  if (!facts.flags.includes(AUTO_FORM_FLAG)) return false;
  if (facts.linkType === LinkType.H5_REDIRECT) return false;
  if (facts.cityExcluded) return false;
  if (facts.cityCode && facts.excludeCityCodes.includes(facts.cityCode)) return false;
  return true;
}

/** The Selector values ([code]) of the form for the answers. */
export function toSelectorValues(
  answers: Partial<AutoFormAnswers>,
): Partial<Record<AutoFormField, number[]>> {
  const out: Partial<Record<AutoFormField, number[]>> = {};
  for (const [field, value] of Object.entries(answers) as [AutoFormField, number | undefined][]) {
    if (typeof value === 'number') out[field] = [value];
  }
  return out;
}
