// Shared test helpers: reading fixture trees, parsing them, building graphs and comparing them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CompactGraph, encodeGraph } from '../../src/core/graph/graphCodec';
import { RepositoryGraph, type ResolutionState } from '../../src/core/graph/repositoryGraph';
import { extractFile } from '../../src/core/parse/extract';
import type { FileGraph } from '../../src/core/parse/fileGraph';
import { ParserPool } from '../../src/core/parse/parser';
import { languageOf } from '../../src/core/parse/languages';
import { isProjectFile, listingOf, projectConfigDirs, projectConfigFrom, type ProjectConfig } from '../../src/core/workspace/projectConfig';
import { rng } from '../support/rng';

export { rng };

export const FIXTURES = path.join(__dirname, '..', 'fixtures');
export const pool = new ParserPool();

/** Every source file and project config file (go.mod, tsconfig.json…) under `dir` as repo-relative path → text. */
/**
 * tokio 1.24.2's `mod` tree (test/fixtures/real/tokio-modules) with the `src/lib.rs` that declares it,
 * kept once, in the tokio fixture (the same file), in path order as readTree gives it.
 */
export function tokioModulesTree(): Map<string, string> {
  const tree = readTree(path.join(FIXTURES, 'real', 'tokio-modules'));
  tree.set('src/lib.rs', fs.readFileSync(path.join(FIXTURES, 'real', 'tokio', 'src', 'lib.rs'), 'utf8'));
  return new Map([...tree].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function readTree(dir: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(abs, entry.name), childRel);
      else if (languageOf(entry.name) || isProjectFile(entry.name)) out.set(prefix + childRel, fs.readFileSync(path.join(abs, entry.name), 'utf8'));
    }
  };
  walk(dir, '');
  return out;
}

const parsed = new Map<string, FileGraph>();
/** Parses with a cache keyed by path and text, so repeated from-scratch builds cost only resolution. */
export async function parse(filePath: string, text: string): Promise<FileGraph> {
  const key = `${filePath}\u0000${text}`;
  let graph = parsed.get(key);
  if (!graph) {
    graph = await extractFile(pool, filePath, languageOf(filePath)!, text);
    parsed.set(key, graph);
  }
  return graph;
}

/** The source files of a tree (the rest are project config files). */
export function sourcePaths(tree: Map<string, string>): string[] {
  return [...tree.keys()].filter((p) => languageOf(p) !== undefined);
}

/** The project config the engine would read from disk for this tree (tsconfigs, go.mod and Cargo.toml files, compiled Python modules). */
export function treeConfig(tree: Map<string, string>): ProjectConfig {
  return projectConfigFrom(projectConfigDirs(sourcePaths(tree)), (rel) => tree.get(rel), listingOf(tree.keys()));
}

export async function buildGraph(tree: Map<string, string>, rootName = 'repo'): Promise<RepositoryGraph> {
  const graph = new RepositoryGraph(rootName);
  const files = await Promise.all(sourcePaths(tree).map((p) => parse(p, tree.get(p)!)));
  graph.apply({ upsert: files, config: treeConfig(tree) });
  return graph;
}

/** A graph restored from `graph` as the query snapshot saves it (encoded, its resolution states as JSON): a warm start's graph. */
export async function restoredCopy(graph: RepositoryGraph, tree: Map<string, string>, rootName = 'repo'): Promise<RepositoryGraph> {
  const copy = new RepositoryGraph(rootName);
  const encoded = encodeGraph(graph.graph)!;
  const files = await Promise.all(sourcePaths(tree).map((p) => parse(p, tree.get(p)!)));
  await copy.restoreSliced(files, treeConfig(tree), new CompactGraph(encoded), JSON.parse(JSON.stringify(graph.resolutionStates())) as ResolutionState[]);
  return copy;
}

export interface Snapshot {
  nodes: Map<string, string>;
  edges: Map<string, string>;
}

export function snapshot(graph: RepositoryGraph): Snapshot {
  const nodes = new Map<string, string>();
  const edges = new Map<string, string>();
  graph.graph.forEachNode((id, a) => nodes.set(id, JSON.stringify(a)));
  graph.graph.forEachEdge((id, a, source, target) => edges.set(id, JSON.stringify({ ...a, source, target })));
  return { nodes, edges };
}

/** Human-readable differences between two snapshots (empty when equal). */
export function compareSnapshots(actual: Snapshot, expected: Snapshot, limit = 10): string[] {
  const out: string[] = [];
  for (const [what, a, e] of [['node', actual.nodes, expected.nodes], ['edge', actual.edges, expected.edges]] as const) {
    for (const [id, v] of e) {
      if (!a.has(id)) out.push(`missing ${what} ${id}`);
      else if (a.get(id) !== v) out.push(`different ${what} ${id}: ${a.get(id)} vs ${v}`);
    }
    for (const id of a.keys()) if (!e.has(id)) out.push(`extra ${what} ${id}`);
  }
  return out.slice(0, limit);
}

/** Edges as `KIND source -> target` strings for readable assertions. */
export function edgeList(graph: RepositoryGraph, filter?: (kind: string) => boolean): string[] {
  const out: string[] = [];
  graph.graph.forEachEdge((_, a) => {
    if (!filter || filter(a.kind)) out.push(`${a.kind} ${a.source} -> ${a.target}`);
  });
  return out.sort();
}


/** One random edit of a file tree: what changed, for the incremental update. */
export interface TreeEdit {
  describe: string;
  upsert: string[];
  remove: string[];
}
/** An edit kind: changes `tree` in place, or returns null when it does not apply to it. `state` lives for one sequence. */
export type TreeOperation<S> = (tree: Map<string, string>, random: () => number, state: S) => TreeEdit | null;

export const pick = <T>(items: readonly T[], random: () => number): T | undefined => (items.length ? items[Math.floor(random() * items.length)] : undefined);

/**
 * The invariant that keeps the index trustworthy, checked by random edit sequences (one per seed,
 * replayable): after every edit, the incrementally maintained graph equals a from-scratch build of
 * the same tree.
 */
export async function assertIncrementalMatchesScratch<S>(
  original: Map<string, string>,
  rootName: string,
  operations: Record<string, TreeOperation<S>>,
  seeds: readonly number[],
  steps: number,
  newState: () => S = () => undefined as S,
  /** 'restored': the edits start from a graph restored as a warm start takes it, not the one built. */
  start: 'built' | 'restored' = 'built',
): Promise<void> {
  const names = Object.keys(operations);
  for (const seed of seeds) {
    const random = rng(seed);
    const tree = new Map(original);
    const state = newState();
    const built = await buildGraph(tree, rootName);
    const incremental = start === 'restored' ? await restoredCopy(built, tree, rootName) : built;
    const history: string[] = [];
    for (let step = 0; step < steps; step++) {
      const edit = operations[pick(names, random)!](tree, random, state);
      if (!edit) continue;
      history.push(edit.describe);
      const upsert = await Promise.all(edit.upsert.filter((p) => languageOf(p)).map((p) => parse(p, tree.get(p)!)));
      incremental.apply({ upsert, remove: edit.remove.filter((p) => languageOf(p)), config: treeConfig(tree) });
      const differences = compareSnapshots(snapshot(incremental), snapshot(await buildGraph(tree, rootName)));
      assert.deepEqual(differences, [], `seed ${seed} diverged after:\n  ${history.join('\n  ')}`);
    }
  }
}

/**
 * Runs `work` and counts the event-loop turns (setImmediate callbacks) that ran meanwhile: work done
 * in this thread in one go lets ~none through, work awaited from another thread lets many.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = () => {
    turns++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { result: await work(), turns };
  } finally {
    done = true;
  }
}

/** The built CLI (dist/cli.js, as users run it). */
export const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');

/** Runs the built CLI in `cwd`: exit code and output. */
export function runCli(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}
