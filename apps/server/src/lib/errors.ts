import { ErrorCode, type ErrorCodeName, errorCatalogue } from '@lm/shared/errors';

/** An error with a catalogue code; the error handler turns it into the envelope. */
export class AppError extends Error {
  readonly code: number;
  readonly status: number;
  constructor(
    readonly kind: ErrorCodeName,
    msg?: string,
    readonly data: unknown = null,
  ) {
    const def = errorCatalogue[kind];
    super(msg ?? def.msg);
    this.name = 'AppError';
    this.code = ErrorCode[kind];
    this.status = def.status;
  }
}

export const appError = (kind: ErrorCodeName, msg?: string, data?: unknown) =>
  new AppError(kind, msg, data ?? null);
