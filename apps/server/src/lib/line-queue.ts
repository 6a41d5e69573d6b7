const encoder = new TextEncoder();
const decoder = new TextDecoder();
const INITIAL_BYTES = 64 * 1024;
const INITIAL_LINES = 1024;

/**
 * A first-in first-out queue of text lines kept as UTF-8 bytes in one growing buffer, each line's end in an
 * `Int32Array` (ADR 052). A queued line is no object on the JavaScript heap: lines that wait tens of ms to be
 * written cost the young generation's collections nothing to copy and are never promoted to the old one, where
 * every queued object would have been garbage for a mark-compact to find. `take` hands a batch back as one
 * string. The buffers grow to the most lines queued at once (the caller bounds it) and are kept for the next.
 */
export class LineQueue {
  private bytes = new Uint8Array(INITIAL_BYTES);
  /** `ends[i]`: the byte offset just after line i (lines `head` to `tail - 1` are queued). */
  private ends = new Int32Array(INITIAL_LINES);
  private head = 0;
  private tail = 0;
  /** The byte offset of line `head`. */
  private start = 0;

  /** Lines queued. */
  get length(): number {
    return this.tail - this.head;
  }

  /** Queues `line` (its own line ending, if any, is the caller's: lines are handed back joined as they are). */
  push(line: string): void {
    const used = this.tail === 0 ? 0 : (this.ends[this.tail - 1] as number);
    // UTF-8 needs at most 3 bytes for a UTF-16 code unit.
    if (used + line.length * 3 > this.bytes.length || this.tail === this.ends.length)
      this.makeRoom(line.length * 3);
    const at = this.tail === 0 ? 0 : (this.ends[this.tail - 1] as number);
    const { written } = encoder.encodeInto(line, this.bytes.subarray(at));
    this.ends[this.tail++] = at + written;
  }

  /** Removes the first `n` lines (fewer when fewer are queued) and answers them as one string. */
  take(n: number): string {
    const k = Math.min(n, this.length);
    if (k <= 0) return '';
    const end = this.ends[this.head + k - 1] as number;
    const text = decoder.decode(this.bytes.subarray(this.start, end));
    this.head += k;
    this.start = end;
    if (this.head === this.tail) {
      this.head = 0;
      this.tail = 0;
      this.start = 0;
    }
    return text;
  }

  /** Moves the queued lines to the buffers' start, then grows what is still too small for `bytesNeeded` more. */
  private makeRoom(bytesNeeded: number): void {
    const used = this.tail === 0 ? 0 : (this.ends[this.tail - 1] as number);
    if (this.head > 0) {
      this.bytes.copyWithin(0, this.start, used);
      for (let i = this.head; i < this.tail; i++)
        this.ends[i - this.head] = (this.ends[i] as number) - this.start;
      this.tail -= this.head;
      this.head = 0;
      this.start = 0;
    }
    const queuedBytes = this.tail === 0 ? 0 : (this.ends[this.tail - 1] as number);
    if (queuedBytes + bytesNeeded > this.bytes.length) {
      const bytes = new Uint8Array(Math.max(this.bytes.length * 2, queuedBytes + bytesNeeded));
      bytes.set(this.bytes.subarray(0, queuedBytes));
      this.bytes = bytes;
    }
    if (this.tail === this.ends.length) {
      const ends = new Int32Array(this.ends.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
  }
}
