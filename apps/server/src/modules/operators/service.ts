import type { OperatorRepository, OperatorRow } from './repository.ts';
import type { Operator } from './rules.ts';

/** An operator record as the rules take it. */
export function operatorOf(row: OperatorRow): Operator {
  return {
    code: row.code,
    companyName: row.companyName,
    shortName: row.shortName,
    filingNumber: row.filingNumber,
    smsSignature: row.smsSignature,
    address: row.address,
    servicePhone: row.servicePhone,
    email: row.email,
  };
}

/**
 * Who a person deals with through a channel (ADR 057): the channel's operator record, else the configured
 * operator. Read from the database each time (agreements are cached by browsers, SMS sends and consents are
 * few): a console edit is what the next reader gets, on every instance.
 */
export class Operators {
  constructor(
    private readonly repo: OperatorRepository,
    /** The configured operator (OPERATOR_*). */
    readonly fallback: Operator,
  ) {}

  /** The same, reading through `repo` (a repository bound to the caller's transaction). */
  within(repo: OperatorRepository): Operators {
    return new Operators(repo, this.fallback);
  }

  /** The operator of the channel `adChannelCode` (the configured one without a code or a record). */
  async forChannel(adChannelCode: string | null | undefined): Promise<Operator> {
    if (!adChannelCode) return this.fallback;
    const row = await this.repo.findForChannel(adChannelCode);
    return row ? operatorOf(row) : this.fallback;
  }
}
