/**
 * `fn`'s answers for the keys asked lately, for a pure function worth more than a map lookup (the click's
 * device hash: an HMAC, 2–4 µs, where a reload asks again for the same fingerprint; ADR 045).
 *
 * Two generations of at most `limit` keys each: when the current one is full it becomes the previous one
 * (the older is dropped whole), and a key found only in the previous one moves into the current one. So at
 * most 2 × `limit` answers are held, and a key asked again within `limit` other keys is always remembered.
 */
export function memoizeRecent<V>(fn: (key: string) => V, limit: number): (key: string) => V {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer: ${limit}`);
  let current = new Map<string, V>();
  let previous = new Map<string, V>();
  const keep = (key: string, value: V): V => {
    if (current.size >= limit) {
      previous = current;
      current = new Map();
    }
    current.set(key, value);
    return value;
  };
  return (key) => {
    const hit = current.get(key);
    if (hit !== undefined) return hit;
    const older = previous.get(key);
    return keep(key, older !== undefined ? older : fn(key));
  };
}
