// Long work in the editor's thread (the VS Code extension host) is cut into slices; between two
// slices it waits for this, so timers, I/O callbacks and other extensions run first.

/** Resolves on the next turn of the event loop, after pending I/O callbacks. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A checkpoint for a long loop: awaiting it gives the event loop a turn once `sliceMs` of work has
 * run since the last turn, and costs nothing measurable otherwise.
 */
export function sliceClock(sliceMs = 8): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < sliceMs) return undefined;
    return nextTurn().then(() => {
      sliceStart = performance.now();
    });
  };
}

/** `each` over every item, giving the event loop a turn whenever `sliceMs` of work has run. */
export async function forEachSliced<T>(items: readonly T[], each: (item: T) => void, sliceMs = 8): Promise<void> {
  const checkpoint = sliceClock(sliceMs);
  for (const item of items) {
    each(item);
    const turn = checkpoint();
    if (turn) await turn;
  }
}
