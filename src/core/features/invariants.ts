// What must hold of the functional view whatever the repository, checked by the tests and by
// bench:features on real code: every function, method and class of the graph under exactly one leaf
// area (through its file), no file left in an area after it is gone, every area grounded in a folder.
// And how far two hierarchies agree: the adjusted Rand index of their leaf assignments.
import type { FeatureHierarchy } from './hierarchy';
import { FEATURE_KINDS } from './phrases';
import type { FeatureGraph } from './profiles';

/** Every violation of the invariants, as sentences (none when the hierarchy is sound). */
export function coverageProblems(graph: FeatureGraph, h: FeatureHierarchy): string[] {
  const problems: string[] = [];
  const leavesHolding = new Map<string, string[]>();
  for (const area of h.areas.values()) {
    if (area.children.length > 0 && area.files.length > 0) problems.push(`inner area ${area.id} lists files`);
    if (area.id !== '' && area.scopes.length === 0) problems.push(`area ${area.id} is not grounded`);
    for (const f of area.files) leavesHolding.set(f, [...(leavesHolding.get(f) ?? []), area.id]);
  }
  for (const file of graph.filePaths()) {
    const leaves = leavesHolding.get(file) ?? [];
    if (leaves.length !== 1) problems.push(`${file} is in ${leaves.length} leaves`);
    else if (h.leafOf(file) !== leaves[0]) problems.push(`${file}: leafOf says ${h.leafOf(file)}, the tree ${leaves[0]}`);
    const listed = new Set(h.entitiesOf(file));
    for (const node of graph.nodesInFile(file)) if (FEATURE_KINDS.has(node.kind) && node.range && !listed.has(node.id)) problems.push(`${node.id} is under no file`);
  }
  for (const file of leavesHolding.keys()) if (!graph.fileGraph(file)) problems.push(`${file} is gone from the graph but still in an area`);
  return problems;
}

/** Each entity's leaf area (through its file), or with `level` its area at that level (1: the top-level area). */
export function entityLeaves(h: FeatureHierarchy, level?: number): Map<string, string> {
  const leaves = new Map<string, string>();
  for (const file of h.filePaths()) {
    const chain = h.chain(file);
    const area = level === undefined ? chain[chain.length - 1] : chain[Math.min(level, chain.length) - 1];
    for (const id of h.entitiesOf(file)) leaves.set(id, area.id);
  }
  return leaves;
}

/**
 * The adjusted Rand index of two labelings over the items both have: 1 for the same partition (whatever
 * the labels are called), about 0 for chance agreement. One cluster each on both sides counts as 1.
 */
export function adjustedRandIndex(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): number {
  const pairs = (n: number) => (n * (n - 1)) / 2;
  const joint = new Map<string, number>();
  const rows = new Map<string, number>();
  const cols = new Map<string, number>();
  let n = 0;
  for (const [item, la] of a) {
    const lb = b.get(item);
    if (lb === undefined) continue;
    n++;
    const key = `${la}\u0000${lb}`;
    joint.set(key, (joint.get(key) ?? 0) + 1);
    rows.set(la, (rows.get(la) ?? 0) + 1);
    cols.set(lb, (cols.get(lb) ?? 0) + 1);
  }
  let index = 0;
  for (const c of joint.values()) index += pairs(c);
  let sumRows = 0;
  for (const c of rows.values()) sumRows += pairs(c);
  let sumCols = 0;
  for (const c of cols.values()) sumCols += pairs(c);
  const expected = (sumRows * sumCols) / (pairs(n) || 1);
  const max = (sumRows + sumCols) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}
