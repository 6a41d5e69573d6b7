import { checkIdCard } from '@lm/shared/validators/id-card';
import type { RealNameProvider, RealNameQuery, RealNameResult } from './types.ts';

/** Thrown when the number itself is invalid (callers validate first; this is a safety net). */
export class InvalidIdNumberError extends Error {
  constructor(readonly problem: string) {
    super(`invalid identity number: ${problem}`);
    this.name = 'InvalidIdNumberError';
  }
}

/**
 * Offline: checks the number's format, region code, birth date and GB 11643 checksum only. It
 * never claims the person is who they say: the answer is `verified: null, method: 'format-only'`.
 */
export class LocalRealNameProvider implements RealNameProvider {
  readonly name = 'local';

  async verify(query: RealNameQuery): Promise<RealNameResult> {
    const problem = checkIdCard(query.idNumber);
    if (problem) throw new InvalidIdNumberError(problem);
    return { verified: null, method: 'format-only', reason: 'format-only' };
  }
}
