// Semantic lifting (RANGER §3.3, RPG-Encoder): a one-sentence purpose description of every function,
// method and class, written by the configured chat model, bottom-up — members before the class that
// holds them, so a class is described from its code and from what its methods were found to do.
// Runs in the background after indexing; search uses whatever is described so far and never waits.
import type { MultiDirectedGraph } from 'graphology';
import type { GraphEdge, GraphNode } from '../model/schema';
import type { DescriptionCache } from './descriptionCache';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

/** A chat model behind an OpenAI-compatible endpoint: one prompt in, one short answer out. */
export interface Describer {
  describe(system: string, prompt: string, signal?: AbortSignal): Promise<string>;
  /**
   * Prompts it takes at once (default 1): an agent's client answers a round of sampling requests
   * together (MCP's 2026-07-28 multi-round-trip requests), one round per batch.
   */
  readonly concurrency?: number;
}

export interface LiftOptions {
  /** The source text of a node (a slice of its file), or undefined when it cannot be read. */
  sourceOf(node: GraphNode): Promise<string | undefined>;
  /** Called after each batch of new descriptions, with the node ids they belong to. */
  onDescribed?(ids: string[]): void;
  signal?: AbortSignal;
  /** Stop after this many model calls (a budget for very large repositories). Default unlimited. */
  maxCalls?: number;
  /** Consecutive failures after which the run gives up (endpoint down). Default 3. */
  maxFailures?: number;
}

/** What grouping the functional view's parts into top-level areas came to (features/areaGroups.ts). */
export interface AreaGroupingReport {
  /** Top-level areas the model grouped the parts into (0: the view stays as built). */
  grouped: number;
  /** The grouping was the model's answer kept from before (no request). */
  cached: boolean;
  failed: number;
  stopped?: string;
}

/** What naming the functional view's upper areas came to after the descriptions (features/areaNames.ts), and grouping them before. */
export interface AreaNamingReport {
  named: number;
  /** Named before (same files): no request. */
  cached: number;
  failed: number;
  stopped?: string;
  grouping?: AreaGroupingReport;
}

export interface LiftReport {
  described: number;
  cached: number;
  failed: number;
  /** Why the run ended early, if it did. */
  stopped?: string;
  /** The functional view's upper areas named with the same model after the descriptions (features/areaNames.ts). */
  areas?: AreaNamingReport;
}

export const LIFTED_KINDS = new Set(['Function', 'Method', 'Class', 'Interface']);
const MEMBER_EDGES = new Set(['CONTAINS', 'HAS_METHOD']);
const MAX_SOURCE_CHARS = 3_000;
const MAX_DESCRIPTION_CHARS = 300;

/** The sentence opens with its verb: the functional view takes its verb phrase as the entity's first feature (features/phrases.ts). */
export const LIFTING_SYSTEM_PROMPT =
  'You describe code for a code search index. Answer with ONE plain sentence (at most 25 words) that starts with a verb ("Parses…", "Represents…") and says what the code is for, in domain terms. No preamble, no code, no markdown.';

/** Lifted nodes, members before their containers (deepest first), then by id for a stable order. */
export function liftingOrder(graph: Graph): string[] {
  const depth = (id: string) => graph.getNodeAttribute(id, 'qname').split('.').length;
  return graph.filterNodes((_, a) => LIFTED_KINDS.has(a.kind) && a.path !== '').sort((a, b) => depth(b) - depth(a) || (a < b ? -1 : 1));
}

export function liftingPrompt(graph: Graph, id: string, source: string | undefined, cache: DescriptionCache): string {
  const node = graph.getNodeAttributes(id);
  const lines = [`${node.kind} ${node.qname} in ${node.path}`];
  if (node.signature) lines.push(`Signature: ${node.signature}`);
  if (node.doc) lines.push(`Docstring: ${node.doc.slice(0, 600)}`);
  const members: string[] = [];
  graph.forEachOutEdge(id, (_e, edge, _s, target) => {
    if (!MEMBER_EDGES.has(edge.kind)) return;
    const member = graph.getNodeAttributes(target);
    const said = cache.get(member.hash);
    if (said) members.push(`- ${member.name}: ${said}`);
  });
  if (members.length) lines.push('Members:', ...members.slice(0, 30));
  if (source) lines.push('Code:', source.length > MAX_SOURCE_CHARS ? `${source.slice(0, MAX_SOURCE_CHARS)}\n…` : source);
  return lines.join('\n');
}

/** What lifting would send now: the functions and classes not described yet, and their prompts' length (a class's members' descriptions left out). */
export interface LiftingCost {
  entities: number;
  characters: number;
}

export async function liftingCost(graph: Graph, cache: DescriptionCache, sourceOf: LiftOptions['sourceOf']): Promise<LiftingCost> {
  let entities = 0;
  let characters = 0;
  for (const id of liftingOrder(graph)) {
    const node = graph.getNodeAttributes(id);
    if (cache.get(node.hash) !== undefined) continue;
    entities++;
    characters += LIFTING_SYSTEM_PROMPT.length + liftingPrompt(graph, id, await sourceOf(node), cache).length;
  }
  return { entities, characters };
}

/**
 * The requests of one run to a model: a budget of calls, and a stop once it has failed a few times in a
 * row (an endpoint that is down) or the run was cancelled. Each method returns why the run stops, if it does.
 */
export class ModelRequests {
  private calls = 0;
  private failuresInARow = 0;

  constructor(private readonly options: { signal?: AbortSignal; maxCalls?: number; maxFailures?: number }) {}

  /** Before the next item. */
  cancelled(): string | undefined {
    return this.options.signal?.aborted ? 'cancelled' : undefined;
  }

  /** Takes one request from the budget. */
  take(): string | undefined {
    if (this.options.maxCalls !== undefined && this.calls >= this.options.maxCalls) return `call budget of ${this.options.maxCalls} reached`;
    this.calls++;
    return undefined;
  }

  answered(): void {
    this.failuresInARow = 0;
  }

  failed(err: unknown): string | undefined {
    if (this.options.signal?.aborted) return 'cancelled';
    if (++this.failuresInARow >= (this.options.maxFailures ?? 3)) return `the model failed ${this.failuresInARow} times in a row: ${err instanceof Error ? err.message : String(err)}`;
    return undefined;
  }
}

export async function liftGraph(graph: Graph, describer: Describer, cache: DescriptionCache, options: LiftOptions): Promise<LiftReport> {
  const report: LiftReport = { described: 0, cached: 0, failed: 0 };
  const requests = new ModelRequests(options);
  const stop = (why: string | undefined) => {
    if (why) report.stopped = why;
    return why !== undefined;
  };
  let batch: string[] = [];
  const flushBatch = async () => {
    if (batch.length === 0) return;
    options.onDescribed?.(batch);
    batch = [];
    await cache.save();
  };
  const describeOne = async (id: string, node: GraphNode) => {
    try {
      const prompt = liftingPrompt(graph, id, await options.sourceOf(node), cache);
      const text = oneLine(await describer.describe(LIFTING_SYSTEM_PROMPT, prompt, options.signal));
      requests.answered();
      if (!text) {
        report.failed++;
        return;
      }
      cache.set(node.hash, text);
      report.described++;
      batch.push(id);
    } catch (err) {
      report.failed++;
      stop(requests.failed(err));
    }
  };
  const order = liftingOrder(graph);
  const depthOf = (id: string) => graph.getNodeAttribute(id, 'qname').split('.').length;
  const concurrency = Math.max(1, describer.concurrency ?? 1);
  // Waves of up to `concurrency` prompts of one depth: a class is asked after its members' answers.
  for (let i = 0; i < order.length && !report.stopped; ) {
    const wave: Array<Promise<void>> = [];
    const depth = graph.hasNode(order[i]) ? depthOf(order[i]) : 0;
    for (; i < order.length && wave.length < concurrency; i++) {
      const id = order[i];
      if (stop(requests.cancelled())) break;
      // The graph may have changed while the model answered: skip what no longer exists.
      if (!graph.hasNode(id)) continue;
      if (depthOf(id) !== depth) break;
      const node = graph.getNodeAttributes(id);
      if (cache.get(node.hash) !== undefined) {
        report.cached++;
        continue;
      }
      if (stop(requests.take())) break;
      wave.push(describeOne(id, node));
    }
    await Promise.all(wave);
    if (batch.length >= 20) await flushBatch();
  }
  await flushBatch();
  return report;
}

/** Models add quotes, markdown and second sentences: keep one clean line. */
function oneLine(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/[*_`#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["']|["']$/g, '')
    .slice(0, MAX_DESCRIPTION_CHARS);
}
