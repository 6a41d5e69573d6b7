/**
 * `fn`'s answers for the keys asked lately, for a pure function worth more than a map lookup (the click's
 * device hash: an HMAC, 2–4 µs, where a reload asks again for the same fingerprint; ADR 045).
 *
 * Two generations of at most `limit` keys each: when the current one is full it becomes the previous one (the
 * older is dropped whole), and a key found only in the previous one moves into the current one. So at most
 * 2 × `limit` answers are held, and a key asked again within `limit` other kept keys is always remembered.
 *
 * `repeatsOnly` (ADR 052): a key is kept only when it is asked again within the last `sightings` to
 * `2 × sightings` first sightings. A first sighting leaves one bit in a typed array and nothing on the heap:
 * under a burst of new visitors, each asked once, their keys and answers would otherwise all outlive a young
 * collection, be promoted and be dropped a second later, old-generation garbage for a mark-compact to find. It
 * also keeps the returning visitors' answers from being pushed out by the new ones.
 */
export function memoizeRecent<V>(
  fn: (key: string) => V,
  limit: number,
  repeatsOnly?: { sightings: number },
): (key: string) => V {
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
  const seenBefore = repeatsOnly ? sightings(repeatsOnly.sightings) : null;
  return (key) => {
    const hit = current.get(key);
    if (hit !== undefined) return hit;
    const older = previous.get(key);
    if (older !== undefined) return keep(key, older);
    const value = fn(key);
    return seenBefore === null || seenBefore(key) ? keep(key, value) : value;
  };
}

/**
 * Whether a key was seen among the last `n` to `2n` first sightings (two generations of a bit set, one bit a key
 * at a 32-bit FNV-1a hash of it; the set sized at 32 bits a sighting, so a key never seen is taken for one seen in
 * ~3–6 % of cases, which only keeps it). Notes the key as seen.
 */
function sightings(n: number): (key: string) => boolean {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`sightings must be a positive integer: ${n}`);
  let bits = 1024;
  while (bits < n * 32) bits *= 2;
  const mask = bits - 1;
  let current = new Int32Array(bits / 32);
  let previous = new Int32Array(bits / 32);
  let count = 0;
  return (key) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    const bit = h & mask;
    const word = bit >>> 5;
    const m = 1 << (bit & 31);
    if (((current[word] as number) & m) !== 0 || ((previous[word] as number) & m) !== 0) return true;
    current[word] = (current[word] as number) | m;
    if (++count >= n) {
      const emptied = previous;
      previous = current;
      current = emptied.fill(0);
      count = 0;
    }
    return false;
  };
}
