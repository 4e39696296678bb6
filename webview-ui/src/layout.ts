// ForceAtlas2. A fresh graph is laid out to convergence on the spot, before its first frame, from
// deterministic seeds: the same view always looks the same, and nothing drifts after it appears.
// After a diff a short burst runs in a web worker in which only the new nodes move (the others are
// pinned with FA2's `fixed`), so what the developer already looked at stays where it was.
import type { MultiDirectedGraph } from 'graphology';
import forceAtlas2, { inferSettings } from 'graphology-layout-forceatlas2';
import FA2Layout from 'graphology-layout-forceatlas2/worker';

const STRUCTURAL = new Set(['CONTAINS', 'HAS_METHOD', 'HAS_FIELD']);

/** Containment pulls hardest: a folder's or a class's members gather around it, so the tree shows. */
function layoutWeight(_edge: string, attributes: { view?: { kind: string } }): number {
  return attributes.view && STRUCTURAL.has(attributes.view.kind) ? 1 : 0.05;
}

/** Node-to-node work the first layout may spend (iterations × nodes²), about 0.3 s in Chromium. */
const CONVERGE_BUDGET = 60_000_000;

export class BurstLayout {
  private layout: FA2Layout | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private onSettled: (() => void) | undefined;
  private waiting: Array<() => void> = [];

  constructor(private readonly graph: MultiDirectedGraph) {}

  get running(): boolean {
    return this.layout?.isRunning() ?? false;
  }

  /**
   * Lays out everything, synchronously, to convergence: the first render or a new folder. LinLog
   * pulls clusters apart, strong gravity keeps loose nodes near the rest, adjustSizes keeps discs
   * from overlapping.
   */
  converge(): void {
    this.stop();
    const n = this.graph.order;
    if (n === 0) return;
    this.graph.forEachNode((id) => this.graph.removeNodeAttribute(id, 'fixed'));
    const barnesHutOptimize = n > 400;
    const iterations = Math.max(60, Math.min(600, Math.floor(CONVERGE_BUDGET / (barnesHutOptimize ? n * 40 : n * n))));
    const settings = { ...inferSettings(this.graph), barnesHutOptimize, linLogMode: false, strongGravityMode: false, gravity: 1, adjustSizes: true, slowDown: 2 };
    forceAtlas2.assign(this.graph, { iterations, settings, getEdgeWeight: layoutWeight });
  }

  /** Lays out only `moving`; every other node keeps its position. */
  only(moving: ReadonlySet<string>, onSettled?: () => void): void {
    if (moving.size === 0) {
      onSettled?.();
      return;
    }
    this.graph.forEachNode((id) => this.graph.setNodeAttribute(id, 'fixed', !moving.has(id)));
    this.run(Math.min(2000, 600 + moving.size * 4), onSettled);
  }

  /** Runs `fn` once the current burst is over (at once when none runs). */
  whenSettled(fn: () => void): void {
    if (this.running) this.waiting.push(fn);
    else fn();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.layout?.kill();
    this.layout = undefined;
    const settled = this.onSettled;
    this.onSettled = undefined;
    settled?.();
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) fn();
  }

  private run(ms: number, onSettled?: () => void): void {
    this.stop();
    if (this.graph.order === 0) {
      onSettled?.();
      return;
    }
    const settings = { ...inferSettings(this.graph), barnesHutOptimize: this.graph.order > 400, adjustSizes: false, slowDown: 5 };
    // the worker reads `fixed` once, when it starts: the pins above apply to this burst only
    this.layout = new FA2Layout(this.graph, { settings, getEdgeWeight: layoutWeight });
    this.layout.start();
    this.onSettled = () => {
      this.graph.forEachNode((id) => this.graph.removeNodeAttribute(id, 'fixed'));
      onSettled?.();
    };
    this.timer = setTimeout(() => this.stop(), ms);
  }
}

/**
 * The box holding the 2nd to 98th percentile of the positions on each axis, or undefined when there
 * are none: what a fit frames, so one node far off does not shrink everything else to a dot.
 */
export function coreBox(points: ReadonlyArray<readonly [number, number]>): { x: [number, number]; y: [number, number] } | undefined {
  if (points.length === 0) return undefined;
  const xs = points.map((p) => p[0]).sort((a, b) => a - b);
  const ys = points.map((p) => p[1]).sort((a, b) => a - b);
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))];
  const axis = (sorted: number[]): [number, number] => {
    const lo = at(sorted, 0.02);
    const hi = at(sorted, 0.98);
    // nodes just past the percentiles stay in frame; only those far out (a quarter of the span) are cut
    const slack = (hi - lo) * 0.25;
    const min = Math.max(sorted[0], lo - slack);
    const max = Math.min(sorted[sorted.length - 1], hi + slack);
    // a single node, or a line of them: some extent keeps the normalisation finite
    return max - min < 1e-6 ? [min - 1, max + 1] : [min, max];
  };
  return { x: axis(xs), y: axis(ys) };
}
