import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import type { Limiter } from '../limits/limiter.ts';

/** How long a challenge may be solved and used (ADR 055). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** What a 1008 answer carries: an ALTCHA (v2) challenge, signed with the server's HMAC key. */
export interface ChallengeData {
  challenge: Awaited<ReturnType<typeof createChallenge>>;
}

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z
      .object({ nonce: z.string().max(200), salt: z.string().max(200), expiresAt: z.number().optional() })
      .passthrough(),
    signature: z.string().max(512),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string().max(512) }),
});

export type ChallengeVerdict = 'ok' | 'invalid' | 'replayed';

/**
 * Proof-of-work challenges with altcha-lib (ADR 055): SHA-256, a random counter below `maxNumber` that the client
 * finds by brute force, expiring in five minutes, signed with `hmacKey`, bound to a purpose (`data.p`). A solution
 * is used once: its nonce is remembered in the limiter's store until the challenge expires.
 */
export class Challenges {
  constructor(
    private readonly d: {
      hmacKey: string;
      maxNumber: number;
      limiter: Limiter;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }

  async create(purpose: string): Promise<ChallengeData> {
    const challenge = await createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      counter: randomInt(this.d.maxNumber),
      deriveKey,
      expiresAt: Math.floor((this.now() + CHALLENGE_TTL_MS) / 1000),
      hmacSignatureSecret: this.d.hmacKey,
      data: { p: purpose },
    });
    return { challenge };
  }

  /** Decodes the body's `altcha` (base64 JSON `{challenge, solution}`, as the ALTCHA widget sends it). */
  static decode(raw: string): z.infer<typeof payloadSchema> | null {
    try {
      const parsed = payloadSchema.safeParse(JSON.parse(Buffer.from(raw, 'base64').toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  /** Checks a solution for `purpose` and spends it: a second use of the same challenge is 'replayed'. */
  async spend(raw: string, purpose: string): Promise<ChallengeVerdict> {
    const payload = Challenges.decode(raw);
    if (!payload) return 'invalid';
    const params = payload.challenge.parameters as Record<string, unknown> & {
      nonce: string;
      expiresAt?: number;
    };
    const data = params.data as { p?: unknown } | undefined;
    if (data?.p !== purpose || typeof params.expiresAt !== 'number') return 'invalid';
    const result = await verifySolution({
      challenge: payload.challenge as unknown as Parameters<typeof verifySolution>[0]['challenge'],
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: this.d.hmacKey,
    }).catch(() => null);
    if (!result?.verified) return 'invalid';
    // Single use: the first spend of the nonce counts it, later ones are refused (until the challenge expires).
    const used = await this.d.limiter.consume(`altcha:used:${params.nonce}`, 1, {
      until: new Date(params.expiresAt * 1000 + 1000),
    });
    return used.allowed ? 'ok' : 'replayed';
  }
}
