// Artifact grounding (RPG-Encoder): an area's minimal directory scope, by Trie branching analysis of its
// files' paths. From the top of the trie, a chain of folders with one branch and no files of the area
// is walked down to where it branches (the lowest common ancestor of what lies below); that folder is
// the scope when the area holds files directly in it or most of the repository's files under it,
// else each branch is grounded on its own. The scopes never nest (non-redundant LCAs), so "Template
// rendering" is tied to the folder that holds the templating code, not to the repository root.

/** A scope is chosen when the area holds at least this share of the repository's files under it. */
const PURITY = 0.5;

interface TrieNode {
  dir: string;
  /** The area's files directly in this folder. */
  direct: number;
  /** The area's files anywhere below. */
  below: number;
  children: Map<string, TrieNode>;
}

export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Files per folder of the whole repository, counting every file below each folder (the root is ''). */
export function filesPerFolder(paths: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of paths) {
    for (let dir = dirOf(path); ; dir = dirOf(dir)) {
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
      if (dir === '') break;
    }
  }
  return counts;
}

/** The folders (repository-relative, '' for the root) that scope `files`, sorted. */
export function groundArea(files: readonly string[], repositoryFiles: ReadonlyMap<string, number>): string[] {
  const root: TrieNode = { dir: '', direct: 0, below: 0, children: new Map() };
  for (const file of files) {
    let node = root;
    node.below++;
    const dir = dirOf(file);
    if (dir !== '') {
      for (const segment of dir.split('/')) {
        let child = node.children.get(segment);
        if (!child) node.children.set(segment, (child = { dir: node.dir ? `${node.dir}/${segment}` : segment, direct: 0, below: 0, children: new Map() }));
        node = child;
        node.below++;
      }
    }
    node.direct++;
  }
  const scopes: string[] = [];
  const ground = (start: TrieNode) => {
    let node = start;
    while (node.direct === 0 && node.children.size === 1) node = node.children.values().next().value!;
    const share = node.below / (repositoryFiles.get(node.dir) ?? node.below);
    if (node.direct > 0 || node.children.size === 0 || share >= PURITY) scopes.push(node.dir);
    else for (const child of node.children.values()) ground(child);
  };
  if (files.length > 0) ground(root);
  return scopes.sort();
}
