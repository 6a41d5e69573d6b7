/**
 * Solves the ALTCHA proof-of-work challenge of a 1008 answer in the browser (ADR 055): SHA-256 with Web Crypto.
 * Loaded on demand only (`withChallenge`), so the login pages' first load does not carry it.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';

type Challenge = Parameters<typeof solveChallenge>[0]['challenge'];

/** The body field `altcha`: base64 of the JSON {challenge, solution}. */
export async function solveAltcha(challenge: unknown, timeoutMs = 60_000): Promise<string> {
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey, timeout: timeoutMs });
  if (!solution) throw new Error('安全验证超时，请重试');
  return btoa(JSON.stringify({ challenge, solution }));
}
