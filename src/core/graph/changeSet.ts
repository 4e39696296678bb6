// Upserts and removals by id where the latest word wins: the shape of a graph diff while it is
// being collected, and of store writes waiting to be merged.
export class ChangeSet<T> {
  private entries = new Map<string, T | null>();

  get empty(): boolean {
    return this.entries.size === 0;
  }

  upsert(id: string, value: T): void {
    this.entries.set(id, value);
  }

  remove(id: string): void {
    this.entries.set(id, null);
  }

  /** Merges a list of upserts and removals (removals first, so an id in both ends upserted). */
  merge(change: { upsert: T[]; remove: string[] }, idOf: (value: T) => string): void {
    for (const id of change.remove) this.remove(id);
    for (const value of change.upsert) this.upsert(idOf(value), value);
  }

  /** The collected changes, leaving the set empty. */
  take(): { upsert: T[]; remove: string[] } {
    const upsert: T[] = [];
    const remove: string[] = [];
    for (const [id, value] of this.entries) {
      if (value === null) remove.push(id);
      else upsert.push(value);
    }
    this.entries = new Map();
    return { upsert, remove };
  }
}
