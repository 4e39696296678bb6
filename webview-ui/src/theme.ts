// Colours by kind, read from CSS custom properties that explorer.css derives from VS Code's theme
// variables: the graph follows light, dark and high-contrast themes and re-reads them on a switch.
import type { EdgeKind } from '../../src/core/graph/schema';
import type { ViewNodeKind } from '../../src/core/explorer/protocol';

export interface Palette {
  node(kind: ViewNodeKind): string;
  edge(kind: EdgeKind): string;
  label: string;
  /** Behind the label of a hovered or highlighted node. */
  labelBackground: string;
  dimmed: string;
  highlight: string;
}

const NODE_VAR: Record<ViewNodeKind, string> = {
  Folder: '--kind-folder', Module: '--kind-module', Class: '--kind-type', Interface: '--kind-type', Enum: '--kind-type',
  TypeAlias: '--kind-type', Function: '--kind-function', Method: '--kind-method', Field: '--kind-member',
  GlobalVariable: '--kind-member', External: '--kind-external', Externals: '--kind-external',
};
const EDGE_VAR: Record<EdgeKind, string> = {
  CONTAINS: '--edge-structure', HAS_METHOD: '--edge-structure', HAS_FIELD: '--edge-structure',
  IMPORTS: '--edge-imports', CALLS: '--edge-calls', INHERITS: '--edge-inherits', USES: '--edge-uses',
};

export function readPalette(): Palette {
  const style = getComputedStyle(document.body);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    node: (kind) => read(NODE_VAR[kind], '#888888'),
    edge: (kind) => read(EDGE_VAR[kind], '#888888'),
    label: read('--label-color', '#cccccc'),
    labelBackground: read('--label-background', '#252526'),
    dimmed: read('--dimmed-color', '#55555555'),
    highlight: read('--highlight-color', '#ffcc00'),
  };
}

/** Calls `onChange` when VS Code switches theme (it swaps the body's classes and style). */
export function watchTheme(onChange: () => void): void {
  new MutationObserver(onChange).observe(document.body, { attributes: true, attributeFilter: ['class', 'style'] });
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
