/**
 * Items queued within one turn of the event loop, handed to `send` in batches (issue 17.3: one round trip
 * for a burst instead of one each): at most `maxBatch` items a batch, only items `alike` the batch's first
 * (when given), at most `maxInFlight` batches at once — more queue meanwhile, so a slow store gets bigger
 * batches. `send` answers its items itself (a batcher neither resolves nor rejects anything) and must not
 * reject.
 */
export class TurnBatcher<T> {
  private queue: T[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly send: (batch: T[]) => Promise<void>,
    private readonly maxBatch: number,
    private readonly maxInFlight: number,
    private readonly alike?: (first: T, other: T) => boolean,
  ) {}

  push(item: T): void {
    this.queue.push(item);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.queue.length > 0 && this.inFlight < this.maxInFlight) {
      const first = this.queue[0]!;
      let n = 1;
      while (
        n < this.queue.length &&
        n < this.maxBatch &&
        (!this.alike || this.alike(first, this.queue[n]!))
      ) {
        n++;
      }
      const batch = this.queue.splice(0, n);
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }
}
