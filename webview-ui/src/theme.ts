// Colours by kind, read from CSS custom properties that explorer.css sets per theme (light palette
// under VS Code's `vscode-light` classes, dark otherwise): the graph follows a theme switch. Dimmed
// colours, for what is not near the selection, are mixed toward the graph's background, never toward
// white or grey: in a dark theme they sink into the background instead of lighting up.
import { FILTERABLE_NODE_KINDS } from '../../src/core/explorer/page';
import type { ViewNodeKind } from '../../src/core/explorer/protocol';
import { EDGE_KINDS, type EdgeKind } from '../../src/core/model/schema';

export interface Palette {
  node(kind: ViewNodeKind): string;
  edge(kind: EdgeKind): string;
  /** An edge's colour when nothing is in focus: present, but quieter than the nodes. */
  softEdge(kind: EdgeKind): string;
  /** A node's or edge's colour when something else is in focus. */
  dimNode(kind: ViewNodeKind): string;
  dimEdge(kind: EdgeKind): string;
  background: string;
  label: string;
  dimLabel: string;
  /** Behind the label of a hovered or highlighted node. */
  labelBackground: string;
  highlight: string;
}

/** How much of a dimmed colour is the background. */
const DIM = 0.82;
const DIM_LABEL = 0.6;
const SOFT = 0.7;
const GREY: Rgb = [136, 136, 136];

type Rgb = [number, number, number];

export function readPalette(): Palette {
  const probe = document.createElement('span');
  probe.hidden = true;
  document.body.append(probe);
  /** Any CSS colour the theme gives (hex, rgb(), a var of a var), as opaque RGB over `over`. */
  const read = (name: string, fallback: Rgb, over?: Rgb): Rgb => {
    probe.style.color = '';
    probe.style.color = `var(${name})`;
    const parts = getComputedStyle(probe).color.match(/[\d.]+/g)?.map(Number);
    if (!parts || parts.length < 3 || !getComputedStyle(document.body).getPropertyValue(name).trim()) return fallback;
    const [r, g, b, a = 1] = parts;
    return over && a < 1 ? mix([r, g, b], over, 1 - a) : [r, g, b];
  };
  const background = read('--graph-background', [30, 30, 30]);
  const label = read('--label-color', [204, 204, 204], background);
  const labelBackground = read('--label-background', [37, 37, 38], background);
  const highlight = read('--highlight-color', [255, 204, 0], background);
  const nodes = new Map(FILTERABLE_NODE_KINDS.map((k) => [k, read(`--kind-${k}`, GREY, background)]));
  const edges = new Map(EDGE_KINDS.map((k) => [k, read(`--edge-${k}`, GREY, background)]));
  probe.remove();
  const node = (kind: ViewNodeKind) => nodes.get(kind) ?? GREY;
  const edge = (kind: EdgeKind) => edges.get(kind) ?? GREY;
  return {
    node: (kind) => hex(node(kind)),
    edge: (kind) => hex(edge(kind)),
    softEdge: (kind) => hex(mix(edge(kind), background, SOFT)),
    dimNode: (kind) => hex(mix(node(kind), background, DIM)),
    dimEdge: (kind) => hex(mix(edge(kind), background, DIM)),
    background: hex(background),
    label: hex(label),
    dimLabel: hex(mix(label, background, DIM_LABEL)),
    labelBackground: hex(labelBackground),
    highlight: hex(highlight),
  };
}

/** `t` of the way from `a` to `b`. */
function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t)) as Rgb;
}

function hex(c: Rgb): string {
  return `#${c.map((v) => Math.max(0, Math.min(255, v)).toString(16).padStart(2, '0')).join('')}`;
}

/** Calls `onChange` when VS Code switches theme (it swaps the body's classes and the root's variables). */
export function watchTheme(onChange: () => void): void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
}

/** Paints the legend swatches next to the filters with the same colours as the graph. */
export function paintLegend(palette: Palette): void {
  document.querySelectorAll<HTMLElement>('[data-swatch]').forEach((el) => {
    const kind = el.dataset.swatch!;
    el.style.backgroundColor = el.classList.contains('edge') ? palette.edge(kind as EdgeKind) : palette.node(kind as ViewNodeKind);
  });
}

/** sigma's hover label, in theme colours (its default is a white box, unreadable under light text). */
export function drawThemedHover(palette: () => Palette) {
  return (context: CanvasRenderingContext2D, data: { x: number; y: number; size: number; label?: string | null }, settings: { labelSize: number; labelFont: string; labelWeight: string }): void => {
    if (!data.label) return;
    const { labelSize: size, labelFont: font, labelWeight: weight } = settings;
    context.font = `${weight} ${size}px ${font}`;
    const width = context.measureText(data.label).width;
    const x = data.x + data.size + 3;
    context.fillStyle = palette().labelBackground;
    context.fillRect(x - 2, data.y - size / 2 - 3, width + 6, size + 6);
    context.fillStyle = palette().label;
    context.fillText(data.label, x + 1, data.y + size / 3);
  };
}
