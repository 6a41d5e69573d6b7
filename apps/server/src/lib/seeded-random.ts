/**
 * A small deterministic generator of numbers in [0, 1) (a linear congruential one), for tests that compare a
 * structure with a `Map` through random operations: the same seed replays the same sequence after a failure.
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
