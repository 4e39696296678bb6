// Compiled twins: a package that ships its TypeScript sources with the JavaScript built from them
// (zod 4 ships `src/v3/types.ts` and, built from it, `v3/types.js` and `v3/types.cjs` with their
// `.d.ts`/`.d.cts`) holds every class and function two to five times, and every caller of one
// twice. An answer names the source once (a declaration file's types too, which the JavaScript lacks). A compiled file's source is the TypeScript file of the same
// name whose folders match it from the end the furthest (`v3/types.cjs` → `src/v3/types.ts`, not
// `src/v4/core/types.ts`; `dist/util.js` → `src/util.ts`), and only when most of the compiled file's
// top-level definitions are in it: a JavaScript file that merely shares a name with a TypeScript file
// is code of its own and stays an answer.
import type { ReadonlyGraph } from '../graph/describe';
import type { GraphEdge, GraphNode } from '../model/schema';

type Graph = ReadonlyGraph;

/** What a build writes from TypeScript: JavaScript, and declaration files (whose types the JavaScript lacks). */
const COMPILED = /\.(?:c|m)?jsx?$|\.d\.(?:c|m)?ts$/;
const SOURCE = /\.(?:c|m)?tsx?$/;
const DECLARATION = /\.d\.(?:c|m)?ts$/;
/** Share of a compiled file's top-level definitions its source must have (tsc keeps every name; a bundler's helpers are extra). */
const SHARED_DEFINITIONS = 0.6;

const stemOf = (file: string): string => file.slice(file.lastIndexOf('/') + 1).replace(/(?:\.d)?\.[^.]+$/, '');

/** Folders two paths end in alike, counted from their files upwards. */
function sharedTail(a: string, b: string): number {
  const x = a.split('/').slice(0, -1).reverse();
  const y = b.split('/').slice(0, -1).reverse();
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

class TwinIndex {
  /** TypeScript sources by file name without its extension; made again when a module comes or goes. */
  private sourcesByStem: Map<string, string[]> | undefined;
  /** Compiled files (JavaScript, declarations) by file name without its extension; made with the sources'. */
  private compiledByStem: Map<string, string[]> | undefined;
  private readonly sourceOfFile = new Map<string, string | undefined>();

  constructor(private readonly graph: Graph) {
    const reset = (payload?: { attributes?: GraphNode }) => {
      if (payload?.attributes && payload.attributes.kind !== 'Module') return;
      this.sourcesByStem = undefined;
      this.compiledByStem = undefined;
      this.sourceOfFile.clear();
    };
    graph.on('nodeAdded', reset);
    graph.on('nodeDropped', reset);
    graph.on('cleared', () => reset());
    // A file's definitions changed (an edit): whether it is still built from its source is asked again.
    const redefined = ({ attributes }: { attributes: GraphEdge }) => {
      if (attributes.kind === 'CONTAINS') this.sourceOfFile.clear();
    };
    graph.on('edgeAdded', redefined);
    graph.on('edgeDropped', redefined);
  }

  /** The TypeScript file `file` (compiled JavaScript) was built from, if the graph holds it. */
  sourceOf(file: string): string | undefined {
    if (!COMPILED.test(file)) return undefined;
    if (this.sourceOfFile.has(file)) return this.sourceOfFile.get(file);
    const candidates = (this.stems().get(stemOf(file)) ?? [])
      .map((source) => ({ source, tail: sharedTail(file, source) }))
      .sort((a, b) => b.tail - a.tail);
    // Two sources that match it equally well: which one it came from is not known.
    const best = candidates[0] && candidates[0].tail !== candidates[1]?.tail ? candidates[0].source : undefined;
    const source = best && this.builtFrom(file, best) ? best : undefined;
    this.sourceOfFile.set(file, source);
    return source;
  }

  /** The compiled files built from `source`, sorted. */
  compiledTo(source: string): string[] {
    if (!SOURCE.test(source) || DECLARATION.test(source)) return [];
    this.stems();
    return (this.compiledByStem!.get(stemOf(source)) ?? []).filter((file) => this.sourceOf(file) === source).sort();
  }

  private stems(): Map<string, string[]> {
    if (this.sourcesByStem) return this.sourcesByStem;
    const sources = new Map<string, string[]>();
    const compiled = new Map<string, string[]>();
    const add = (map: Map<string, string[]>, id: string) => {
      const list = map.get(stemOf(id));
      if (list) list.push(id);
      else map.set(stemOf(id), [id]);
    };
    this.graph.forEachNode((id, node) => {
      if (node.kind !== 'Module') return;
      if (COMPILED.test(id)) add(compiled, id);
      else if (SOURCE.test(id)) add(sources, id);
    });
    this.sourcesByStem = sources;
    this.compiledByStem = compiled;
    return sources;
  }

  /** Most of the compiled file's top-level definitions are the source's too. */
  private builtFrom(compiled: string, source: string): boolean {
    if (!this.graph.hasNode(compiled)) return false;
    let defined = 0;
    let shared = 0;
    this.graph.forEachOutEdge(compiled, (_edge, attributes, _from, target) => {
      if (attributes.kind !== 'CONTAINS') return;
      defined++;
      if (this.graph.hasNode(`${source}${withoutRedefinitions(target.slice(compiled.length))}`)) shared++;
    });
    return defined > 0 && shared >= defined * SHARED_DEFINITIONS;
  }
}

/** `#ZodError@2.formErrors` → `#ZodError.formErrors`. */
const withoutRedefinitions = (qname: string): string => qname.replace(/@\d+(?=\.|$)/g, '');

const indexes = new WeakMap<Graph, TwinIndex>();

function twinIndex(graph: Graph): TwinIndex {
  let index = indexes.get(graph);
  if (!index) indexes.set(graph, (index = new TwinIndex(graph)));
  return index;
}

/** The TypeScript file a compiled file (`v3/types.cjs`, `dist/util.d.ts`) was built from, when the graph holds it. */
export function compiledFrom(graph: Graph, file: string): string | undefined {
  return twinIndex(graph).sourceOf(file);
}

/** The compiled files (`v3/types.cjs`, `v3/types.d.ts`, …) built from a TypeScript file, sorted; [] for any other file. */
export function compiledTo(graph: Graph, file: string): string[] {
  return twinIndex(graph).compiledTo(file);
}

/** `id` (a definition in compiled JavaScript) as the same definition in the TypeScript it was built from; `id` otherwise. */
export function sourceTwin(graph: Graph, id: string): string {
  const hash = id.indexOf('#');
  if (hash < 0 || !COMPILED.test(id.slice(0, hash))) return id;
  const source = twinIndex(graph).sourceOf(id.slice(0, hash));
  if (!source) return id;
  // Compiled CommonJS can define a name twice (`class ZodError` and an assignment to it: `ZodError@2`)
  // where the source has it once.
  for (const qname of [id.slice(hash), withoutRedefinitions(id.slice(hash))]) {
    if (graph.hasNode(`${source}${qname}`)) return `${source}${qname}`;
  }
  return id;
}
