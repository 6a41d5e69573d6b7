import { z } from 'zod';

export const SUCCESS_MSG = 'success';

export function ok<T>(data: T) {
  return { code: 200 as const, msg: SUCCESS_MSG, data };
}

/** Response schema of a successful call (OpenAPI and serialisation). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(200), msg: z.string(), data });
}

export const errorEnvelope = z.object({ code: z.number().int(), msg: z.string(), data: z.unknown() });
