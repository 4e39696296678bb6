// Long work in the editor's thread (the VS Code extension host) is cut into slices; between two
// slices it waits for this, so timers, I/O callbacks and other extensions run first.

/** Resolves on the next turn of the event loop, after pending I/O callbacks. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
