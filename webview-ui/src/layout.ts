// ForceAtlas2 in a web worker, run in bursts: a long one for a fresh graph, a short one after a diff
// in which only the new nodes move (the others are pinned with FA2's `fixed`), so what the developer
// already looked at stays where it was.
import type { MultiDirectedGraph } from 'graphology';
import { inferSettings } from 'graphology-layout-forceatlas2';
import FA2Layout from 'graphology-layout-forceatlas2/worker';

export class BurstLayout {
  private layout: FA2Layout | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private onSettled: (() => void) | undefined;
  private waiting: Array<() => void> = [];

  constructor(private readonly graph: MultiDirectedGraph) {}

  get running(): boolean {
    return this.layout?.isRunning() ?? false;
  }

  /** Lays out everything: the first render or a new folder. */
  all(onSettled?: () => void): void {
    this.graph.forEachNode((id) => this.graph.removeNodeAttribute(id, 'fixed'));
    this.run(Math.min(4000, 800 + this.graph.order * 2), onSettled);
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
    this.layout = new FA2Layout(this.graph, { settings, getEdgeWeight: null });
    this.layout.start();
    this.onSettled = () => {
      this.graph.forEachNode((id) => this.graph.removeNodeAttribute(id, 'fixed'));
      onSettled?.();
    };
    this.timer = setTimeout(() => this.stop(), ms);
  }
}
