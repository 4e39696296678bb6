// When Find Where Implemented searches as the user types (no `vscode`: unit-tested). Keys typed faster
// than the pause are one query, searched once the typing pauses, always for the last value (the timer
// fires after the last key). One search runs at a time; values typed meanwhile collapse into one
// search for the latest. A search whose value is no longer the box's is the caller's to drop.

export class TypingSearch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: string | undefined;
  private draining: Promise<void> | undefined;
  /** The value last handed to a search (or about to be). */
  private requested: string | undefined;
  private busy = false;
  private disposed = false;

  constructor(
    private readonly search: (value: string) => Promise<void>,
    private readonly onBusy: (busy: boolean) => void,
    private readonly pauseMs: number,
  ) {}

  /** The box's value changed (a key): searched once typing pauses; an emptied box at once. */
  typed(value: string): void {
    // VS Code reports a value the command set itself (the initial query) as a change: already asked for.
    if (value === this.requested && this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!value.trim()) {
      void this.now(value);
      return;
    }
    this.setBusy(true);
    this.timer = setTimeout(() => void this.now(value), this.pauseMs);
  }

  /** Searches `value` as soon as the search in flight (if any) is done: the initial query, Show more, an index that became ready. */
  now(value: string): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.disposed) return Promise.resolve();
    this.requested = value;
    this.pending = value;
    this.setBusy(true);
    this.draining ??= (async () => {
      try {
        while (this.pending !== undefined && !this.disposed) {
          const next = this.pending;
          this.pending = undefined;
          await this.search(next);
        }
      } finally {
        this.draining = undefined;
        if (this.timer === undefined) this.setBusy(false);
      }
    })();
    return this.draining;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private setBusy(busy: boolean): void {
    if (busy === this.busy || this.disposed) return;
    this.busy = busy;
    this.onBusy(busy);
  }
}
