// Label collision avoidance for sigma: it offers every node's label, biggest node first, and this
// draws a label only where it crosses none drawn before it in the same frame. Forced labels (the
// selection, the hovered node, a find-where path) are always drawn and claim their space too.
import type { NodeLabelDrawingFunction } from 'sigma/rendering';

interface Box {
  label: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Gap kept between two labels, in pixels. */
const MARGIN = 3;

export class LabelPlacer {
  private placed: Box[] = [];

  drawn(): readonly Box[] {
    return this.placed;
  }

  /** A new frame: nothing is placed yet. */
  clear(): void {
    this.placed = [];
  }

  readonly draw: NodeLabelDrawingFunction = (context, data, settings) => {
    if (!data.label) return;
    const size = settings.labelSize;
    context.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
    const width = context.measureText(data.label).width;
    const x = data.x + data.size + 3;
    const box = { label: data.label, x0: x - MARGIN, y0: data.y - size / 2 - MARGIN, x1: x + width + MARGIN, y1: data.y + size / 2 + MARGIN };
    if (!data.forceLabel && this.placed.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) return;
    this.placed.push(box);
    const attribute = settings.labelColor.attribute;
    context.fillStyle = (attribute && (data as Record<string, unknown>)[attribute] as string) || settings.labelColor.color || '#000';
    context.fillText(data.label, x, data.y + size / 3);
  };
}
