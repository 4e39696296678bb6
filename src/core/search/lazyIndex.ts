// The search indexes are built on the first query that needs them, in slices, on the editor's thread.
// While one is being built the graph keeps changing (saves, a branch switch): what changes meanwhile is
// re-read once the build is done, and a reset (a new graph, too large a change) makes the build void.
// What changes before the first build starts is re-read after it too: a build may restore an index
// saved earlier (the query snapshot's), which knows nothing of what changed since (a description).

/** An index over graph nodes that can re-read single nodes. */
export interface NodeIndex {
  update(ids: Iterable<string>): void;
  /** Set when an update cannot keep the index as a fresh build would make it: it is built again. */
  readonly stale?: boolean;
}

export class LazyIndex<T extends NodeIndex> {
  private built: T | undefined;
  private building: Promise<T> | undefined;
  private generation = 0;
  private readonly touchedUntilBuilt = new Set<string>();

  constructor(private readonly build: () => Promise<T>) {}

  /** Whether `get` answers at once (no build to run or wait for). */
  get isBuilt(): boolean {
    return this.built !== undefined;
  }

  /** The index, built now if need be; queries that arrive during the build wait for the same one. */
  get(): Promise<T> {
    if (this.built) return Promise.resolve(this.built);
    if (this.building) return this.building;
    const generation = this.generation;
    const building = this.build().then(
      (index) => {
        if (generation === this.generation) {
          index.update(this.touchedUntilBuilt);
          this.touchedUntilBuilt.clear();
          this.building = undefined;
          // Stale after the edits made meanwhile: the next `get` builds again.
          if (!index.stale) this.built = index;
        }
        // A void build still answers the queries that waited for it, from the graph it read.
        return index;
      },
      (error: unknown) => {
        if (generation === this.generation) this.building = undefined;
        throw error;
      },
    );
    this.building = building;
    return building;
  }

  /** These nodes changed: re-read them now, or once the index is built (by the running build, or the next). */
  touch(ids: Iterable<string>): void {
    if (this.built) {
      this.built.update(ids);
      if (this.built.stale) this.reset();
    } else for (const id of ids) this.touchedUntilBuilt.add(id);
  }

  /** Throw the index away (and void a running build): the next `get` builds a new one. */
  reset(): void {
    this.built = undefined;
    this.building = undefined;
    this.generation++;
    this.touchedUntilBuilt.clear();
  }
}
