// Background threads (parsing, model inference) run at a lower scheduling priority than the thread
// that starts them. On a 2-core machine two busy parse workers otherwise take the CPU from the
// editor's own thread (the VS Code extension host), whose event loop then stalls for 50-100 ms at a
// time although its own work is sliced. With a lower priority they still use every idle cycle:
// indexing is as fast on an idle machine, and the editor wins when both want the CPU.
import * as os from 'node:os';

/** Nice value of background threads: below normal, not idle (they must still finish under load). */
const BACKGROUND_NICE = 10;

/**
 * Lowers the priority of the calling thread. Only on Linux: there nice values are per thread, while
 * on macOS and Windows the same call would lower the whole process, the editor's thread included.
 * Threads the caller starts afterwards (ONNX Runtime's pool) inherit it.
 */
export function runInBackground(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(0, Math.max(os.getPriority(0), BACKGROUND_NICE));
  } catch {
    // Not permitted in this sandbox: run at normal priority.
  }
}
