// Label collision avoidance for sigma: it offers every node's label, biggest node first, and this
// draws a label right of, left of, below or above its node, wherever it first crosses neither a label
// drawn before it in the same frame nor another node's disc (dots aside) nor the view's edge; else not at all. Forced labels (the selection, the hovered node, a find-where path) are always drawn.
// Boxes live in a coarse grid, so a frame costs about one check per neighbouring box, not one per node.
import type { NodeLabelDrawingFunction } from 'sigma/rendering';

/** A label's or a disc's bounds in viewport pixels; `key`: the label's text, or the disc's node. */
type Box = { key: string; x0: number; y0: number; x1: number; y1: number };

/** Gap kept around a label, in pixels. */
const MARGIN = 3;
const CELL = 64;
/** Discs smaller than this may sit under a label: a dot should not cost a big folder its name. */
const MIN_OBSTACLE = 5;

/** A drawn node: its key, viewport centre and radius in pixels. */
export type Disc = { key: string; x: number; y: number; r: number };

export class LabelPlacer {
  private grid = new Map<number, Box[]>();
  private labels: Box[] = [];
  private fresh = true;

  /** `discs`: the nodes drawn in the current frame, read when its first label is placed. */
  constructor(private readonly discs: () => Iterable<Disc>) {}

  /**
   * A new frame. The discs are read later, at the first label: sigma announces a frame before it
   * has computed where the nodes are drawn.
   */
  clear(): void {
    this.fresh = true;
    this.labels = [];
  }

  private start(): void {
    this.fresh = false;
    this.grid = new Map();
    for (const d of this.discs()) if (d.r >= MIN_OBSTACLE) this.add({ key: d.key, x0: d.x - d.r, y0: d.y - d.r, x1: d.x + d.r, y1: d.y + d.r });
  }

  /** The labels drawn in this frame. */
  drawn(): ReadonlyArray<Box> {
    return this.labels;
  }

  readonly draw: NodeLabelDrawingFunction = (context, data, settings) => {
    if (!data.label) return;
    if (this.fresh) this.start();
    const size = settings.labelSize;
    context.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
    const width = context.measureText(data.label).width;
    const r = data.size;
    // right of the disc as sigma does, else left, below, above: the first spot that is free
    const spots = [
      [data.x + r + 3, data.y],
      [data.x - r - 3 - width, data.y],
      [data.x - width / 2, data.y + r + 2 + size / 2],
      [data.x - width / 2, data.y - r - 2 - size / 2],
    ];
    const self = (data as { key?: string }).key;
    // a label the view's edge would cut is read as a broken one: try another side. A label that must be
    // drawn (the selected or hovered node's) may cross others, but still takes a side the edge leaves whole.
    const view = { width: context.canvas.clientWidth, height: context.canvas.clientHeight };
    const label = data.label;
    const boxes = spots.map(([x, y]): Box => ({ key: label, x0: x - MARGIN, y0: y - size / 2 - MARGIN, x1: x + width + MARGIN, y1: y + size / 2 + MARGIN }));
    const whole = (box: Box) => box.x0 >= 0 && box.y0 >= 0 && box.x1 <= view.width && box.y1 <= view.height;
    let at = boxes.findIndex((box) => whole(box) && (data.forceLabel || !this.collides(box, self)));
    if (at < 0 && data.forceLabel) at = 0;
    if (at < 0) return;
    this.add(boxes[at]);
    this.labels.push(boxes[at]);
    const attribute = settings.labelColor.attribute;
    context.fillStyle = (attribute && ((data as Record<string, unknown>)[attribute] as string)) || settings.labelColor.color || '#000';
    context.fillText(data.label, spots[at][0], spots[at][1] + size / 3);
  };

  private cells(b: Box, visit: (key: number) => boolean | void): boolean {
    for (let cx = Math.floor(b.x0 / CELL); cx <= Math.floor(b.x1 / CELL); cx++) {
      for (let cy = Math.floor(b.y0 / CELL); cy <= Math.floor(b.y1 / CELL); cy++) if (visit(cx * 100003 + cy)) return true;
    }
    return false;
  }

  private add(b: Box): void {
    this.cells(b, (k) => {
      const list = this.grid.get(k);
      if (list) list.push(b);
      else this.grid.set(k, [b]);
    });
  }

  /** Whether `box` crosses anything placed, its own node's disc aside. */
  private collides(box: Box, self: string | undefined): boolean {
    return this.cells(box, (k) => this.grid.get(k)?.some((b) => b.key !== self && b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1));
  }
}
