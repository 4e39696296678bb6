// How long work holds the event loop: a 5 ms interval timer measures the gaps between its ticks;
// the longest gap minus 5 ms is the longest block. (perf_hooks' monitorEventLoopDelay was tried and
// under-reports: it gave 10 ms for a call measured here to hold the loop for 876 ms.)
export interface LoopGaps {
  wallMs: number;
  longestBlockMs: number;
  over50ms: number;
  p99BlockMs: number;
}

export async function withLoopGaps<T>(work: () => Promise<T>): Promise<LoopGaps & { result: T }> {
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 5);
  const t0 = performance.now();
  let result: T;
  try {
    result = await work();
    // The gap that ends when the work returns is only measured by the next tick.
    await new Promise<void>((resolve) => setTimeout(resolve, 6));
  } finally {
    clearInterval(timer);
  }
  const wallMs = performance.now() - t0;
  const blocks = gaps.map((g) => Math.max(0, g - 5)).sort((a, b) => b - a);
  return { result, wallMs: Math.round(wallMs), longestBlockMs: Math.round(blocks[0] ?? 0), over50ms: blocks.filter((b) => b > 50).length, p99BlockMs: Math.round(blocks[Math.floor(blocks.length / 100)] ?? 0) };
}
