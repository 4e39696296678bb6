// After a failure, requests wait: 1 s, 2 s, 4 s … up to a minute, so an endpoint that is down costs
// one failed request per interval instead of one per keystroke. A success resets it.
export class Backoff {
  private failures = 0;
  private until = 0;

  constructor(
    private readonly baseMs = 1000,
    private readonly maxMs = 60000,
    private readonly now: () => number = Date.now,
  ) {}

  get ready(): boolean {
    return this.now() >= this.until;
  }

  /** Milliseconds until the next request may go out (0 when ready). */
  get waitMs(): number {
    return Math.max(0, this.until - this.now());
  }

  get failureCount(): number {
    return this.failures;
  }

  failed(): void {
    this.failures++;
    this.until = this.now() + Math.min(this.maxMs, this.baseMs * 2 ** (this.failures - 1));
  }

  succeeded(): void {
    this.failures = 0;
    this.until = 0;
  }
}
