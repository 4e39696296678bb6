// `cartograph features [area | path | name]` as text or JSON, made wherever the hierarchy is: in the
// repository's service (which keeps it current and is the one writer of the store's features.json) or
// in a CLI process of its own. Without a target, every area with its folders, size and key terms; with
// an area id, what is under it; with a file or a definition, the chain of areas it is under.
import * as path from 'node:path';
import type { MultiDirectedGraph } from 'graphology';
import { findNodes } from '../graph/describe';
import type { GraphEdge, GraphNode } from '../model/schema';
import type { FeatureHierarchy, FeatureUpdate } from './hierarchy';
import { areaLine, areaOutline, fileChain, summarizeArea } from './render';

export interface FeaturesRequest {
  /** An area id, a file (relative to `cwd`, to the repository root, or absolute) or a definition's name; '' for all. */
  target: string;
  /** The asking process's folder, against which a relative file is read first. */
  cwd: string;
  json: boolean;
}

/** What the answer says about where the hierarchy came from (`--json`). */
export interface FeaturesProvenance {
  /** built, loaded or updated from the store in this process; `service` when the service kept it. */
  source: string;
  ms: number;
  update?: FeatureUpdate;
}

export interface FeaturesAnswer {
  /** 0, or 1 when nothing has that name. */
  code: number;
  stdout: string[];
  stderr: string[];
}

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

export function featuresAnswer(h: FeatureHierarchy, graph: Graph, root: string, request: FeaturesRequest, provenance: FeaturesProvenance): FeaturesAnswer {
  const stdout: string[] = [];
  const answered = (lines: string[]): FeaturesAnswer => ({ code: 0, stdout: lines, stderr: [] });
  const json = (value: unknown) => answered([JSON.stringify(value, null, 2)]);
  const qnameOf = (id: string) => (graph.hasNode(id) ? graph.getNodeAttribute(id, 'qname') : id);
  const { target } = request;
  if (!target) {
    const areas = [...h.areas.values()].filter((a) => a.id !== '').map((a) => summarizeArea(h, a));
    if (request.json) return json({ root: h.rootName, files: h.filePaths().length, entities: h.entityCount(''), areas, ...provenance });
    stdout.push(`${h.rootName}: ${h.filePaths().length} files, ${h.entityCount('')} functions, methods and classes in ${h.root.children.length} areas (model-free features; ${provenance.source} in ${provenance.ms} ms)`);
    return answered([...stdout, ...areaOutline(h, '', Infinity)]);
  }
  const area = h.areas.get(target);
  if (area && target !== '') {
    const files = area.children.length === 0 ? area.files : [];
    if (request.json) return json({ area: summarizeArea(h, area), subareas: area.children.map((c) => summarizeArea(h, h.areas.get(c)!)), files, chain: chainOf(h, area.id), ...provenance });
    return answered([areaLine(h, area), ...areaOutline(h, area.id, Infinity).map((l) => `  ${l}`), ...files.map((f) => `  ${f}  (${h.entitiesOf(f).length} entities)`)]);
  }
  const file = fileOf(h, root, request);
  const entity = file ? undefined : findNodes(graph, target).find((id) => h.features(id).length > 0 || h.leafOf(graph.getNodeAttribute(id, 'path')) !== undefined);
  const at = file ?? (entity ? graph.getNodeAttribute(entity, 'path') : undefined);
  if (!at) return { code: 1, stdout: [], stderr: [`cartograph features: no area, indexed file or definition '${target}'`] };
  const chain = h.chain(at);
  if (request.json) {
    const entities = (entity ? [entity] : h.entitiesOf(at)).map((id) => ({ id, qname: qnameOf(id), features: h.features(id) }));
    return json({ path: at, chain: chain.map((a) => summarizeArea(h, a)), entities, ...provenance });
  }
  const lines = fileChain(h, at, qnameOf);
  // A definition asked for by name: its own line only, under its file.
  return answered(entity ? lines.filter((l, i) => i <= chain.length || l.trimStart().startsWith(`${qnameOf(entity)} —`)) : lines);
}

function chainOf(h: FeatureHierarchy, id: string): string[] {
  const ids: string[] = [];
  for (let at = h.areas.get(id)?.parent; at; at = h.areas.get(at)?.parent) ids.unshift(at);
  return ids;
}

/** A file of the hierarchy named relative to the asking folder, to the repository root, or absolute. */
function fileOf(h: FeatureHierarchy, root: string, { target, cwd }: FeaturesRequest): string | undefined {
  const candidates = [path.relative(root, path.resolve(cwd, target)), target.replace(/^\.\/+/, '')].map((p) => p.split(path.sep).join('/'));
  return candidates.find((p) => h.leafOf(p) !== undefined);
}
