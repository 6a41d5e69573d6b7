import { APPLY_LIMIT_OPTIONS } from '@/config/form-options';

/** A sample amount per applyLimit option, for the monthly-payment estimate. */
const SAMPLE_YUAN: Record<number, number> = { 1: 5_000, 2: 30_000, 3: 80_000, 4: 150_000 };

/** Amount options of the form draft (applyLimit codes of config/form-options.ts) with a sample amount. */
export const LIMIT_CHOICES = APPLY_LIMIT_OPTIONS.map((o) => ({
  ...o,
  sampleYuan: SAMPLE_YUAN[o.value] ?? 10_000,
}));

export function limitLabel(value: number | null | undefined): string | null {
  return LIMIT_CHOICES.find((c) => c.value === value)?.label ?? null;
}
