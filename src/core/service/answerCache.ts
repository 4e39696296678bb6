// Answers kept for the graph version they were made on: agents repeat calls (the same search, the same
// node) while nothing changes, and a tool answer on Django costs tens of milliseconds of the one
// thread every client shares. Any change to the graph (a save, a watcher batch) moves its version on,
// and an answer made on an older version is never returned.
const MAX_ENTRIES = 512;

export class AnswerCache<T> {
  private readonly entries = new Map<string, { version: number; value: T }>();

  get(key: string, version: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return undefined;
    // Most recently used last: the first entry is the one to drop.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, version: number, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}
