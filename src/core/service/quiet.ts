// "Once nothing has been asked for a while": what a service can do later, and would otherwise do while a
// client waits on its one thread (collecting a burst's garbage, preparing search after a start), runs
// once no question has come for QUIET_MS.

const QUIET_MS = 1_000;

export class Quiet {
  private last = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly ms = QUIET_MS) {}

  /** A question was asked or answered now. */
  touch(): void {
    this.last = Date.now();
  }

  /** Runs `work` once `ms` have passed since the last touch: now if they have, later (and later again if touched meanwhile) if not. */
  then(work: () => void): void {
    const wait = this.last + this.ms - Date.now();
    if (wait <= 0) {
      work();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.then(work);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }

  /** Drops the work not run yet. */
  cancel(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
