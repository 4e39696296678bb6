// The explorer webview's HTML, shared by the VS Code panel and the static test page so both run under
// the same strict Content-Security-Policy: scripts only with the page's nonce, styles and images only
// from the extension's own files, the force-layout worker from a blob, nothing remote.
import type { EdgeKind } from '../model/schema';
import { EDGE_KINDS } from '../model/schema';
import type { ViewNodeKind } from './protocol';

export interface PageOptions {
  nonce: string;
  /** The webview's resource origin (`webview.cspSource`). */
  cspSource: string;
  styleUri: string;
  /** Loaded in order, each with the nonce. */
  scriptUris: string[];
}

export const FILTERABLE_NODE_KINDS: readonly ViewNodeKind[] = [
  'Area', 'Folder', 'Module', 'Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method', 'Field', 'GlobalVariable', 'External', 'Externals',
];
/** Hidden at first: the group of every external symbol is a hub that ties all modules into one ball. */
export const HIDDEN_NODE_KINDS: readonly ViewNodeKind[] = ['Externals'];
/** Shown at first; the rest are one click away (CONTAINS alone draws the tree). */
export const DEFAULT_EDGE_KINDS: readonly EdgeKind[] = ['CONTAINS', 'HAS_METHOD', 'INHERITS', 'IMPORTS', 'CALLS'];

export function explorerPage(o: PageOptions): string {
  const csp = [
    "default-src 'none'",
    `img-src ${o.cspSource} data:`,
    `style-src ${o.cspSource}`,
    `font-src ${o.cspSource}`,
    `script-src 'nonce-${o.nonce}'`,
    'worker-src blob:',
  ].join('; ');
  const nodeFilters = FILTERABLE_NODE_KINDS.map(
    (k) => `<label class="kind"><input type="checkbox" data-node-kind="${k}"${HIDDEN_NODE_KINDS.includes(k) ? '' : ' checked'}><span class="swatch" data-swatch="${k}"></span>${k}</label>`,
  ).join('');
  const edgeFilters = EDGE_KINDS.map(
    (k) => `<label class="kind"><input type="checkbox" data-edge-kind="${k}"${DEFAULT_EDGE_KINDS.includes(k) ? ' checked' : ''}><span class="swatch edge" data-swatch="${k}"></span>${k}</label>`,
  ).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${o.styleUri}">
<title>Cartograph Graph Explorer</title>
</head>
<body>
<header class="toolbar" role="toolbar" aria-label="Graph explorer">
  <select id="folder" aria-label="Workspace folder" hidden></select>
  <div class="search">
    <input id="search" type="search" placeholder="Search symbols (/)" aria-label="Search symbols" aria-controls="results" autocomplete="off">
    <ul id="results" role="listbox" aria-label="Search results" hidden></ul>
  </div>
  <label class="toggle" title="Functional areas (features grouped from the code) as the first levels, instead of folders"><input id="by-areas" type="checkbox"> Areas</label>
  <label class="toggle"><input id="follow" type="checkbox"> Follow cursor</label>
  <button id="fit" type="button" title="Fit the graph to the view (0)">Fit</button>
  <span id="status" role="status" aria-live="polite"></span>
</header>
<main>
  <div id="graph" tabindex="0" aria-label="Repository graph. Enter reveals the selected node, + expands, - collapses, Escape clears."></div>
  <aside class="side">
    <section aria-label="Node kinds"><h2>Nodes</h2>${nodeFilters}</section>
    <section aria-label="Edge kinds"><h2>Edges</h2>${edgeFilters}</section>
    <section id="details" aria-label="Selected node" hidden>
      <h2 id="details-title"></h2>
      <div id="details-kind"></div>
      <pre id="details-signature"></pre>
      <p id="details-doc"></p>
      <pre id="details-source" aria-label="Source" hidden></pre>
      <div class="actions">
        <button id="reveal" type="button" title="Open in the editor (Enter)">Reveal</button>
        <button id="toggle" type="button" title="Expand or collapse (+ / -)">Expand</button>
      </div>
    </section>
  </aside>
</main>
<div id="tooltip" role="tooltip" hidden></div>
${o.scriptUris.map((s) => `<script nonce="${o.nonce}" src="${s}"></script>`).join('\n')}
</body>
</html>`;
}
