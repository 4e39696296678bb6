// GRACE phase 2, structural half: from the query graph's links into the repository, the nodes the
// cursor most likely needs — the cross-file symbols referenced (nearer the cursor and named in the
// lines just before it: higher), the classes they belong to and inherit from, the base-class
// methods the enclosing method overrides, one-hop callees of what is called, and callers of the
// function being written. Each carries the triples (graph facts) that explain why it was chosen.
import type { MultiDirectedGraph } from 'graphology';
import type { EdgeKind, GraphEdge, GraphNode } from '../model/schema';
import { folderId, moduleId, symbolId } from '../model/schema';
import type { TypeMember } from './definitionNames';
import { identifierWords } from '../search/identifiers';
import { analogues, commonSiblingUses } from './analogy';
import { literalAtCursor, openBrackets } from './literalAtCursor';
import type { QueryGraph } from './queryGraph';

type Graph = MultiDirectedGraph<GraphNode, GraphEdge>;

/** A graph fact that links a retrieved node to the code being written; OVERRIDES is derived (same-named method of a base class). */
export interface Triple {
  source: string;
  kind: EdgeKind | 'OVERRIDES';
  target: string;
}

export interface StructuralCandidate {
  id: string;
  /** In [0, 1]: evidence from several links is combined as a noisy-or. */
  score: number;
  triples: Triple[];
}

/** How strongly one link explains a node (the strongest links become its triples). */
const SEED_WEIGHT: Partial<Record<EdgeKind, number>> = { INHERITS: 0.9, CALLS: 0.7, USES: 0.6, IMPORTS: 0.35 };
const RETRIEVABLE = new Set(['Class', 'Interface', 'Enum', 'TypeAlias', 'Function', 'Method', 'Field', 'GlobalVariable', 'Module']);

/** Repository-wide lookups by name (definitionNames.ts). */
export interface RepositoryNames {
  /** Exported top-level definitions called `name`. */
  named(name: string): readonly string[];
  /** Members called `name` of interfaces, object type aliases and classes. */
  typesWithMember(name: string): readonly TypeMember[];
  /** Members called `name` of Python classes. */
  classesWithMember(name: string): readonly TypeMember[];
  /** Top-level definitions of a file by spelling (definitionNames.ts `spelling`). */
  inFile(path: string, key: string): readonly string[];
}

export function structuralCandidates(graph: Graph, q: QueryGraph, names?: RepositoryNames): StructuralCandidate[] {
  const found = new Map<string, StructuralCandidate>();
  // Nodes of the buffer's own file are in the prompt already (as the buffer itself).
  const admissible = (id: string) => graph.hasNode(id) && RETRIEVABLE.has(graph.getNodeAttributes(id).kind) && graph.getNodeAttributes(id).path !== q.query.path;
  const add = (id: string, score: number, triple: Triple) => {
    if (!admissible(id)) return;
    const s = Math.max(0, Math.min(1, score));
    const c = found.get(id);
    if (!c) found.set(id, { id, score: s, triples: [triple] });
    else {
      c.score = 1 - (1 - c.score) * (1 - s);
      // A node linked to the buffer already is explained; second-hop facts about it would only spend budget.
      if (c.triples.length === 0) c.triples.push(triple);
    }
  };
  const nearbyRank = new Map(q.nearby.map((name, i) => [name, i]));
  const nearbyBoost = (name: string) => {
    const rank = nearbyRank.get(name);
    return rank === undefined ? 0 : 0.3 * (1 - rank / Math.max(1, q.nearby.length));
  };
  const enclosingIds = q.enclosing.map((s) => symbolId(q.query.path, s.localId));
  const near = new Map<string, number>();
  const proximity = (id: string): number => {
    let p = near.get(id);
    if (p === undefined) {
      const lines = q.useLines.get(id) ?? [];
      const distance = lines.reduce((d, line) => Math.min(d, Math.abs(line - q.cursorLine)), Infinity);
      near.set(id, (p = Math.exp(-distance / PROXIMITY_LINES)));
    }
    return p;
  };
  const reExporting = /(^|\/)__init__\.py$/.test(q.query.path);

  // Seeds: what the buffer imports, inherits and references, scored per target from all its links.
  interface Evidence {
    imported: boolean;
    usedBefore: number;
    usedAfter: number;
    inEnclosing: number;
    links: Array<{ edge: GraphEdge; weight: number }>;
  }
  const evidence = new Map<string, Evidence>();
  for (const edge of q.edges) {
    const weight = SEED_WEIGHT[edge.kind];
    if (weight === undefined || !graph.hasNode(edge.target)) continue;
    let e = evidence.get(edge.target);
    if (!e) evidence.set(edge.target, (e = { imported: false, usedBefore: 0, usedAfter: 0, inEnclosing: 0, links: [] }));
    const depth = enclosingIds.indexOf(edge.source);
    const inEnclosing = depth < 0 ? 0 : depth === 0 ? 1 : 0.6;
    if (edge.kind === 'IMPORTS') e.imported = true;
    else if (edge.line > q.cursorLine) e.usedAfter++;
    else e.usedBefore++;
    e.inEnclosing = Math.max(e.inEnclosing, inEnclosing);
    e.links.push({ edge, weight: weight + inEnclosing });
  }
  for (const [id, e] of evidence) {
    const name = graph.getNodeAttributes(id).name;
    let score = 0.4;
    score += 0.25 * e.inEnclosing;
    score += nearbyBoost(name);
    // An import nothing has used yet was written for the code still to come; not in a package's
    // `__init__.py`, whose imports are mostly re-exports (`from .app import Flask as Flask`).
    if (e.imported && e.usedBefore === 0 && !reExporting) score += 0.2;
    if (e.usedAfter > 0) score += 0.1;
    // A base of the class being written, or of one declared near the cursor; not of every class in the file.
    if (e.links.some((l) => l.edge.kind === 'INHERITS')) score += 0.3 * (e.links.some((l) => l.edge.kind === 'INHERITS' && enclosingIds.includes(l.edge.source)) ? 1 : proximity(id));
    // Used a few lines away, above or below (FIM): what the next line is about; most of a file's names are used far away.
    score += 0.3 * proximity(id) + 0.03 * Math.log1p(e.usedBefore);
    // The two strongest links explain the choice; more would spend the budget on repetition.
    // An import says less than a use: it is shown only for names nothing uses yet.
    const used = e.links.filter((l) => l.edge.kind !== 'IMPORTS');
    const links = (used.length > 0 ? used : e.links).sort((a, b) => b.weight - a.weight).slice(0, 2);
    if (admissible(id)) found.set(id, { id, score: Math.min(1, score), triples: links.map(({ edge }) => ({ source: edge.source, kind: edge.kind, target: edge.target })) });
  }

  // Overridden methods: the enclosing method's namesake in the enclosing class's bases.
  const method = q.enclosing.find((s) => s.kind === 'Method');
  const cls = q.enclosing.find((s) => s.kind === 'Class' || s.kind === 'Interface');
  if (method && cls) {
    const clsId = symbolId(q.query.path, cls.localId);
    const bases = q.edges.filter((e) => e.kind === 'INHERITS' && e.source === clsId).map((e) => e.target);
    for (const overridden of findInHierarchy(graph, bases, (name) => name === method.name)) {
      add(overridden, 0.95, { source: symbolId(q.query.path, method.localId), kind: 'OVERRIDES', target: overridden });
    }
  }
  // The code being written in a method reads and calls `self.x` and `self.app.x`; with nothing after
  // the cursor to name x, the members of the enclosing class's bases and of the classes whose members
  // its methods use (`self.app`'s `Flask`), made of the words the method and the lines before the
  // cursor are made of: `self.error_handler_spec` in `_find_error_handler`, `self.teardown_request_funcs`
  // in `do_teardown_request`.
  // Not while the method's parameter list is being written: a signature names types, not `self.x`.
  if (method && cls && !inParameterList(q)) {
    const clsId = symbolId(q.query.path, cls.localId);
    const share = wordsAroundShare(wordsAround(q));
    for (const { id, share: s, receiver, base } of receiverMembersNamed(graph, q, clsId, symbolId(q.query.path, method.localId), share)) add(id, 0.5 + 0.4 * s, { source: clsId, kind: base ? 'INHERITS' : 'USES', target: receiver });
  }
  // A method being typed in a subclass (`def ren` under `class X(Base)`, no method yet): the bases'
  // methods whose name starts so, nearest base first.
  const typed = methodNameBeingTyped(q);
  if (typed && q.enclosing[0]?.kind === 'Class') {
    const clsId = symbolId(q.query.path, q.enclosing[0].localId);
    const bases = q.edges.filter((e) => e.kind === 'INHERITS' && e.source === clsId).map((e) => e.target);
    for (const overridden of findInHierarchy(graph, bases, (name) => name.startsWith(typed)).slice(0, MAX_OVERRIDE_CANDIDATES)) {
      add(overridden, 0.95, { source: clsId, kind: 'OVERRIDES', target: overridden });
    }
  }

  // The line before the cursor stands elsewhere in the buffer too (a parameter list repeated over a
  // family of methods, a chain of similar assignments or branches): what followed it there is the
  // likeliest next line, so the definitions those lines use are what this one needs.
  for (const { id, share } of repeatedSuccessors(q)) add(id, 0.75 + 0.2 * share, { source: q.query.path, kind: 'USES', target: id });

  // The cursor in a block of imports: the line most likely imports another name of a module the
  // lines around it import from (an `__init__.py` re-exporting its package one name per line), or of
  // the module named on the line being typed (`from .core import `). The module's skeleton lists
  // the public names the buffer does not import yet (snippets.ts).
  const around = importLinesAround(q);
  for (const id of modulesImportedAround(graph, q, around)) add(id, 0.95, { source: q.query.path, kind: 'IMPORTS', target: id });
  // A block importing or re-exporting a folder module by module (`export { audit } from './operators/audit'`,
  // an index or `__init__.py`): the folder's next modules that the buffer does not import yet.
  for (const id of nextModulesOfFolder(graph, q)) add(id, 0.85, { source: q.query.path, kind: 'IMPORTS', target: id });
  // ...and the definitions of the names the buffer uses without importing or defining them: what
  // an import line being written is for (auto-import); when each name is a definition of one or two places.
  if (around.size > 0 && names) {
    let count = 0;
    for (const name of unboundNames(q)) {
      const ids = names.named(name);
      if (ids.length === 0 || ids.length > 2) continue;
      for (const id of ids) add(id, 0.9, { source: q.query.path, kind: 'USES', target: id });
      if (++count === MAX_UNBOUND_NAMES) break;
    }
  }
  // At the top of a file, before any definition (often nothing else is written yet): what the other
  // files of its folder import is what this one is likely to import.
  for (const { id, share } of folderImports(graph, q)) add(id, 0.55 + 0.4 * share, { source: q.query.path, kind: 'IMPORTS', target: id });
  // A brace list of names still open above the cursor (`export {\n  _lt as lt,\n  _gte as gte,\n  ⟨cursor⟩`, its
  // `from` not written yet): the module defining the names listed so far, and its definitions that come next in it.
  const list = openImportList(q);
  for (const id of names && list ? nextListedDefinitions(graph, q, names, list.names) : []) add(id, 0.9, { source: q.query.path, kind: 'IMPORTS', target: id });
  // ...and what the files importing the same definitions import besides (operators that import
  // `operate` import `createOperatorSubscriber`): with nothing below the cursor to name it yet, the
  // likeliest next import is what code of the same kind imports.
  if (around.size > 0) {
    for (const { id, share } of coImported(graph, q, importedTargets(q))) add(id, 0.55 + 0.4 * share, { source: q.query.path, kind: 'IMPORTS', target: id });
  }
  // ...and the same inside a brace import not closed yet (`import {\n  createAction,\n  ⟨cursor⟩`,
  // nothing after it): the module comes last, so no import edge exists yet; the definitions its
  // names stand for (when each is one or two definitions of the repository) are the anchors.
  if (names && list && !list.closedAfter && list.names.length > 0) {
    const anchors = list.names.flatMap((name) => {
      const ids = names.named(name);
      return ids.length > 0 && ids.length <= 2 ? ids : [];
    });
    // The module most of them are defined in (no barrel between): its skeleton lists the names left to import.
    const modules = new Map<string, number>();
    for (const id of anchors) {
      if (!graph.hasNode(id)) continue;
      const module = moduleId(graph.getNodeAttributes(id).path);
      modules.set(module, (modules.get(module) ?? 0) + 1);
    }
    const home = [...modules].filter(([, n]) => n >= 2 && n * 2 >= anchors.length).map(([id]) => id);
    for (const id of home) add(id, 0.95, { source: q.query.path, kind: 'IMPORTS', target: id });
    // Through a barrel (`from "../internal"`) no one module says what comes next: more co-imports do.
    const limit = home.length > 0 ? MAX_CO_IMPORTS : MAX_BLOCK_CO_IMPORTS;
    for (const { id, share } of coImported(graph, q, new Set([...importedTargets(q), ...anchors]), limit)) add(id, 0.55 + 0.4 * share, { source: q.query.path, kind: 'IMPORTS', target: id });
  }
  // The cursor inside an object literal: the next line is another key of the type it is checked
  // against. Typed literals are references already (the extractor's contextual types); for the
  // others, the types declaring most of the literal's keys (or a member whose type is a key's literal value).
  if (names && q.query.language !== 'python') {
    for (const { id, score } of typesOfLiteral(graph, q, names)) add(id, score, { source: q.query.path, kind: 'USES', target: id });
  }

  // Python: a value the graph cannot type (an unannotated parameter, a call's result): the classes
  // declaring most of the members the function uses on it are what its next use needs.
  if (names && q.query.language === 'python') {
    for (const { id, score } of classesOfUntypedValues(q, names)) add(id, score, { source: q.query.path, kind: 'USES', target: id });
  }

  // What the definition being written's siblings use, transposed to its own name (`ZodEmail` uses
  // `$ZodEmail`: `ZodNanoID` will use `$ZodNanoID`): the next line is often its siblings' line in its own words.
  if (names) {
    const nameOf = (id: string) => (graph.hasNode(id) ? graph.getNodeAttributes(id).name : undefined);
    for (const a of analogues(q, (path, key) => names.inFile(path, key), nameOf).slice(0, MAX_ANALOGUES)) {
      add(a.id, a.votes >= 2 ? 0.95 : 0.8, { source: a.edge.source, kind: a.edge.kind, target: a.edge.target });
    }
  }

  // ...and what most of them use as is, which the definition being written does not use yet.
  for (const u of commonSiblingUses(q).slice(0, MAX_ANALOGUES)) add(u.id, 0.55 + 0.4 * u.share, { source: u.edge.source, kind: u.edge.kind, target: u.edge.target });

  // Between top-level definitions: the one being started is likely of the kind that followed the
  // last one's kind before (an `interface ZodX` is followed by `const ZodX = core.$constructor(…)`),
  // and uses what most definitions of that kind there use.
  for (const { id, share } of nextDefinitionUses(graph, q)) add(id, 0.6 + 0.35 * share, { source: q.query.path, kind: 'USES', target: id });

  // One hop out from the seeds: owners and bases of classes, callees of functions.
  for (const seed of [...found.values()]) {
    const node = graph.getNodeAttributes(seed.id);
    graph.forEachOutEdge(seed.id, (_e, edge) => {
      if (edge.target === seed.id) return;
      if (edge.kind === 'INHERITS') add(edge.target, seed.score * 0.5, { source: seed.id, kind: 'INHERITS', target: edge.target });
      else if (edge.kind === 'CALLS' && (node.kind === 'Function' || node.kind === 'Method')) add(edge.target, seed.score * 0.25, { source: seed.id, kind: 'CALLS', target: edge.target });
      // The method being overridden: an override's signature and body use what the base's use (`view_func: ft.RouteCallable`).
      else if (edge.kind === 'USES' && seed.triples[0]?.kind === 'OVERRIDES') add(edge.target, seed.score * 0.6, { source: seed.id, kind: 'USES', target: edge.target });
    });
    // A module imported as a namespace (`from . import typing as ft`): its public names are what `ft.` completes to.
    if (node.kind === 'Module') {
      graph.forEachOutEdge(seed.id, (_e, edge) => {
        if (edge.kind === 'CONTAINS' && !graph.getNodeAttributes(edge.target).name.startsWith('_')) add(edge.target, seed.score * 0.6, { source: seed.id, kind: 'CONTAINS', target: edge.target });
      });
    }
    if (node.kind === 'Method' || node.kind === 'Field') {
      graph.forEachInEdge(seed.id, (_e, edge) => {
        if (edge.kind === 'HAS_METHOD' || edge.kind === 'HAS_FIELD') add(edge.source, seed.score * 0.5, { source: edge.source, kind: edge.kind, target: seed.id });
      });
    }
  }

  // Callers of the function being written (it exists in the graph when the file is indexed).
  const fn = q.enclosing.find((s) => s.kind === 'Function' || s.kind === 'Method');
  if (fn) {
    const fnId = symbolId(q.query.path, fn.localId);
    if (graph.hasNode(fnId)) {
      graph.forEachInEdge(fnId, (_e, edge) => {
        if (edge.kind === 'CALLS') add(edge.source, 0.3, { source: edge.source, kind: 'CALLS', target: fnId });
      });
    }
  }
  // Names made of the words the code around the cursor is made of (`util.NUMBER_FORMAT_RANGES` inside
  // `$ZodCheckNumberFormat`, `core.$ZodNanoID` under `ZodNanoID`) are what it is about.
  const candidates = [...found.values()];
  const candidateNames = candidates.map((c) => graph.getNodeAttributes(c.id).name);
  const affinity = wordAffinity(q, candidateNames);
  for (const [i, c] of candidates.entries()) {
    // A name written near the cursor (a comment, the next line) counts for what a seed's hop reached
    // too, as it does for the seeds: `z.intersection` among the 300 names of the namespace `z`.
    const named = evidence.has(c.id) ? 0 : nearbyBoost(candidateNames[i]);
    c.score = 1 - (1 - c.score) * (1 - AFFINITY_WEIGHT * affinity[i]) * (1 - named);
  }
  // Equal scores (noisy-or saturates at 1 for a file's busiest names): the one used nearer the cursor first.
  return candidates.sort((a, b) => b.score - a.score || proximity(b.id) - proximity(a.id) || (a.id < b.id ? -1 : 1));
}

const MAX_UNBOUND_NAMES = 24;
/** Analogues offered: the siblings' most shared uses; each is one definition the buffer has not named. */
const MAX_ANALOGUES = 8;
/** Evidence a name made only of the words around the cursor adds (noisy-or, like every other link). */
const AFFINITY_WEIGHT = 0.4;
/** A word in more than this share of the candidates' names (`zod`, `get`) tells them apart no more than none. */
const COMMON_WORD_SHARE = 0.1;
/** Lines after the cursor (fill-in-the-middle) whose words count as around it. */
const FOLLOWING_LINES = 6;

/** `$ZodCheckNumberFormat` → zod, check, number, format; `NUMBER_FORMAT_RANGES` → number, format, ranges. */
function nameWords(name: string): string[] {
  return identifierWords(name).filter((w) => w.length >= 3);
}

/** The words of the definitions around the cursor, the identifiers just before it and (FIM) the lines after it. */
function wordsAround(q: QueryGraph): Set<string> {
  const following = q.query.suffix.split('\n').slice(0, FOLLOWING_LINES).join('\n');
  const identifiers = `${q.partialStatement}\n${following}`.match(/[A-Za-z_$][\w$]*/g) ?? [];
  return new Set([...q.enclosing.map((s) => s.name), ...q.nearby.slice(0, 30), ...identifiers].flatMap(nameWords));
}

/**
 * Per name, the share of its words that are among `around`, a word counting when one spelling starts
 * the other (`preprocess` / `preprocessors`, `default` / `defaults`): 0 for a name of no such word.
 * Each word is matched once per request, however many members are asked about.
 */
function wordsAroundShare(around: ReadonlySet<string>): (name: string) => number {
  const stems = [...around].filter((w) => w.length >= STEM_LENGTH);
  const known = new Map<string, boolean>();
  const matches = (w: string) => known.get(w) ?? known.set(w, around.has(w) || (w.length >= STEM_LENGTH && stems.some((a) => a.startsWith(w) || w.startsWith(a)))).get(w)!;
  return (name) => {
    const words = nameWords(name);
    return words.length === 0 ? 0 : words.filter(matches).length / words.length;
  };
}
/** Words shorter than this match only whole (`url` is not the start of `urlencode`'s meaning). */
const STEM_LENGTH = 5;
/** Members of a class hierarchy looked at for one request: bounded by the hierarchy, not the repository. */
const MAX_INHERITED_MEMBERS = 400;

/** Classes (besides the bases) whose members the enclosing class's methods use that are looked into. */
const MAX_RECEIVERS = 4;

/**
 * Of what `self.` and `self.attr.` reach from the buffer's class `clsId`, the members whose name
 * shares words around the cursor (with that share, `shareOf`). Looked into: its bases, the classes
 * owning the most members its code uses already and the classes the method `methodId` names
 * (MAX_RECEIVERS each), each with its ancestors, four levels; `receiver` is the class looked into,
 * `base` whether it is one of the bases (the fact shown is INHERITS, else USES).
 */
function receiverMembersNamed(graph: Graph, q: QueryGraph, clsId: string, methodId: string, shareOf: (name: string) => number): Array<{ id: string; share: number; receiver: string; base: boolean }> {
  const bases = q.edges.filter((e) => e.kind === 'INHERITS' && e.source === clsId).map((e) => e.target);
  const owners = new Map<string, number>();
  for (const edge of q.edges) {
    if (!edge.source.startsWith(`${clsId}.`)) continue;
    // A member's owner is in its id (`app.py#Flask.config`), not read from its in-edges: a busy member has thousands.
    const owner = edge.target.slice(0, edge.target.lastIndexOf('.'));
    if (owner.includes('#') && graph.hasNode(owner) && graph.hasDirectedEdge(owner, edge.target)) owners.set(owner, (owners.get(owner) ?? 0) + 1);
  }
  const used = [...owners.entries()].filter(([id]) => !bases.includes(id)).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_RECEIVERS).map(([id]) => id);
  // ...and the classes the method being written names itself (a parameter's annotation: `app: "Flask"` is what `app.` reaches).
  const named = q.edges.filter((e) => e.source === methodId && graph.hasNode(e.target) && graph.getNodeAttributes(e.target).kind === 'Class').map((e) => e.target);
  const receivers = [...new Set([...bases, ...used, ...named.slice(0, MAX_RECEIVERS)])];
  const out: Array<{ id: string; share: number; receiver: string; base: boolean }> = [];
  for (const receiver of receivers) for (const m of inheritedMembersNamed(graph, [receiver], shareOf)) out.push({ ...m, receiver, base: bases.includes(receiver) });
  return out;
}

/** Members of `classes` and their ancestors (four levels) whose name shares words around the cursor, with that share. */
function inheritedMembersNamed(graph: Graph, classes: string[], shareOf: (name: string) => number): Array<{ id: string; share: number }> {
  const out: Array<{ id: string; share: number }> = [];
  const seen = new Set<string>();
  let level = classes.filter((c) => graph.hasNode(c));
  let looked = 0;
  for (let depth = 0; depth < 4 && level.length > 0 && looked < MAX_INHERITED_MEMBERS; depth++) {
    const next: string[] = [];
    for (const c of level) {
      if (seen.has(c)) continue;
      seen.add(c);
      graph.forEachOutEdge(c, (_e, edge) => {
        if (edge.kind === 'INHERITS') next.push(edge.target);
        else if ((edge.kind === 'HAS_METHOD' || edge.kind === 'HAS_FIELD') && looked++ < MAX_INHERITED_MEMBERS) {
          const name = graph.getNodeAttributes(edge.target).name;
          // `__init__` shares its one word with every constructor; dunders are called by the language, not written as `x.__init__`.
          if (DUNDER.test(name)) return;
          const share = shareOf(name);
          if (share > 0) out.push({ id: edge.target, share });
        }
      });
    }
    level = next;
  }
  return out;
}

const DUNDER = /^__\w+__$/;

/** Lines of the buffer repeating the lines around the cursor that are looked at (the nearest first). */
const MAX_REPEATS = 24;
/** Neighbouring text shorter than this (`else:`, `*,`, `self,`) repeats by chance: the key takes the next line too. */
const MIN_REPEATED_LINE = 12;
/** Lines a key is made of at most. */
const MAX_KEY_LINES = 3;

/**
 * Definitions used on the lines that stand, elsewhere in the buffer, where the cursor's line stands:
 * after the lines that precede the cursor, or before the lines that follow it (fill-in-the-middle).
 * A family of methods repeats one parameter list (httpx's `params: …[QueryParamTypes] = None,` is
 * followed by `headers: …[HeaderTypes]` in every method of the client), a chain of branches or
 * assignments repeats its shape. With the share of those lines using each definition. Such a line
 * must start with what is typed on the cursor's line so far, and counts double when both
 * neighbours agree; lines that start with a long enough typed text count too. The neighbours are
 * the nearest non-blank lines, more of them while their text is short (`*,` after `url: URLTypes,`).
 */
function repeatedSuccessors(q: QueryGraph): Array<{ id: string; share: number }> {
  const lines = `${q.query.prefix}${q.query.suffix}`.split('\n');
  const code = (line: number) => lines[line]?.trim() ?? '';
  const step = (from: number, by: number) => {
    let line = from + by;
    while (line >= 0 && line < lines.length && code(line) === '') line += by;
    return line;
  };
  const inside = (line: number) => line >= 0 && line < lines.length;
  /** The texts of the non-blank lines from `from` on in direction `by`, until long enough. */
  const key = (from: number, by: number): string[] => {
    const texts: string[] = [];
    for (let line = step(from, by); inside(line) && texts.length < MAX_KEY_LINES; line = step(line, by)) {
      texts.push(code(line));
      if (texts.join('').length >= MIN_REPEATED_LINE) return texts;
    }
    return [];
  };
  /** Whether the lines from `line` on in direction `by` read `texts`. */
  const reads = (line: number, by: number, texts: string[]) => {
    for (const text of texts) {
      if (!inside(line) || code(line) !== text) return false;
      line = step(line, by);
    }
    return true;
  };
  const typed = q.partialStatement.trim();
  const votes = new Map<number, number>();
  const nearest = (a: number, b: number) => Math.abs(a - q.cursorLine) - Math.abs(b - q.cursorLine);
  // Above: the lines the cursor's line follows; below (FIM only: a prefix has nothing after it): those it precedes.
  const above = key(q.cursorLine, -1);
  const below = q.query.suffix.trim() === '' ? [] : key(q.cursorLine, 1);
  for (const [texts, by] of [[above, -1], [below, 1]] as const) {
    if (texts.length === 0) continue;
    const found: number[] = [];
    for (let line = 0; line < lines.length; line++) {
      if (line === q.cursorLine || code(line) !== texts[0] || !reads(line, by, texts)) continue;
      const candidate = step(line, -by);
      if (candidate !== q.cursorLine && inside(candidate) && code(candidate).startsWith(typed)) found.push(candidate);
    }
    for (const line of [...new Set(found)].sort(nearest).slice(0, MAX_REPEATS)) votes.set(line, (votes.get(line) ?? 0) + 1);
  }
  // What is typed already begins other lines of the buffer (`cookies: typing.Optional[`): those are its likeliest ends.
  if (typed.length >= MIN_REPEATED_LINE) {
    const started = lines.flatMap((_, line) => (line !== q.cursorLine && code(line).startsWith(typed) ? [line] : []));
    for (const line of started.sort(nearest).slice(0, MAX_REPEATS)) if (!votes.has(line)) votes.set(line, 1);
  }
  if (votes.size === 0) return [];
  const total = [...votes.values()].reduce((a, b) => a + b, 0);
  const used = new Map<string, number>();
  for (const [id, at] of q.useLines) {
    let v = 0;
    for (const [line, weight] of votes) if (at.includes(line)) v += weight;
    if (v > 0) used.set(id, v / total);
  }
  return [...used].map(([id, share]) => ({ id, share }));
}

/**
 * Whether the cursor is in the parameter list of the function it is in: the parenthesis after the
 * function's name on its header is still open (not one of its body, `if (a\n and b)`).
 */
export function inParameterList(q: QueryGraph): boolean {
  const fn = q.enclosing[0];
  if (!fn || (fn.kind !== 'Function' && fn.kind !== 'Method')) return false;
  let offset = 0;
  for (let line = 0; line < fn.range.startLine; line++) {
    const next = q.query.prefix.indexOf('\n', offset);
    if (next < 0) return false;
    offset = next + 1;
  }
  const header = new RegExp(`\\b${fn.name.replace(/[$]/g, '\\$')}\\s*\\(`).exec(q.query.prefix.slice(offset));
  if (!header) return false;
  const paren = offset + header.index + header[0].length - 1;
  return openBrackets(q.query.prefix, offset)[0] === paren;
}

/**
 * Per name, in [0, 1]: the share of its distinctive words (not common among the candidates) that
 * the definitions around the cursor and the identifiers just before it are made of.
 */
function wordAffinity(q: QueryGraph, names: string[]): number[] {
  const around = wordsAround(q);
  const split = names.map(nameWords);
  const frequency = new Map<string, number>();
  for (const words of split) for (const w of new Set(words)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const common = Math.max(3, COMMON_WORD_SHARE * names.length);
  return split.map((words) => {
    const distinctive = words.filter((w) => frequency.get(w)! <= common);
    return distinctive.length === 0 ? 0 : distinctive.filter((w) => around.has(w)).length / distinctive.length;
  });
}
/** Lines over which a use's pull on the cursor falls to 1/e. */
const PROXIMITY_LINES = 8;
/** Types offered for one literal: a union's variants share most keys, and each skeleton costs budget. */
const MAX_LITERAL_TYPES = 4;
/** Of those, the variants a literal value picks: the rest are types declaring the keys alone (a common part). */
const MAX_LITERAL_VARIANTS = 2;
/** Subtypes a declared member is credited to: bounds the walk under a base every type extends. */
const MAX_SUBTYPES = 64;
/** Keys declared by more types than this are not credited to their subtypes (bounded work per keystroke). */
const MAX_DECLARING_WALKED = 32;

/**
 * Types whose members match the keys of the object literal at the cursor: at least two keys, or one
 * key whose string value is the member's literal type (`code: "too_big"` → `readonly code: "too_big"`).
 * A member counts for the types that inherit it too (`input` of `$ZodIssueBase` is a key of every
 * issue interface), as the type checker sees it. Scored by the share of the literal's keys they
 * declare, each key weighted by how few types declare it (`inst` says more than `input`, which every
 * issue type has). A literal is often a variant picked by a discriminating value, together with the
 * keys every variant takes from a common part (an intersection, a base): the best variants by value
 * and the best types by keys alone are both offered, as the next key may be of either.
 */
function typesOfLiteral(graph: Graph, q: QueryGraph, names: RepositoryNames): Array<{ id: string; score: number }> {
  const literal = literalAtCursor(q.query.prefix, q.query.suffix);
  if (!literal) return [];
  const owners = new Map<string, { keys: number; weight: number; values: number }>();
  let total = 0;
  for (const key of literal.keys) {
    const value = literal.values.get(key);
    const declaring = names.typesWithMember(key).filter(({ member, owner }) => !owner.startsWith(`${q.query.path}#`) && graph.hasNode(member));
    const holders = new Map<string, boolean>();
    for (const { member, owner } of declaring) {
      const signature = value === undefined ? '' : graph.getNodeAttributes(member).signature;
      const valued = value !== undefined && (signature.includes(`"${value}"`) || signature.includes(`'${value}'`));
      holders.set(owner, valued || (holders.get(owner) ?? false));
      // A key many types declare weighs little either way: their subtypes are not walked.
      if (declaring.length <= MAX_DECLARING_WALKED) for (const sub of subtypes(graph, owner)) if (!holders.has(sub)) holders.set(sub, valued);
    }
    const weight = 1 / Math.max(1, holders.size);
    total += weight;
    for (const [owner, valued] of holders) {
      const o = owners.get(owner) ?? owners.set(owner, { keys: 0, weight: 0, values: 0 }).get(owner)!;
      o.keys++;
      o.weight += weight;
      if (valued) o.values++;
    }
  }
  const ranked = [...owners.entries()]
    .filter(([id, o]) => (o.keys >= 2 || o.values > 0) && !id.startsWith(`${q.query.path}#`))
    .map(([id, o]) => ({ id, o, share: o.weight / total }));
  const byValue = ranked.filter((r) => r.o.values > 0).sort((a, b) => b.o.values - a.o.values || b.share - a.share || (a.id < b.id ? -1 : 1)).slice(0, MAX_LITERAL_VARIANTS);
  const byKeys = ranked.filter((r) => !byValue.includes(r)).sort((a, b) => b.share - a.share || (a.id < b.id ? -1 : 1));
  return [...byValue, ...byKeys]
    .slice(0, MAX_LITERAL_TYPES)
    .map(({ id, o, share }) => ({ id, score: 0.6 + 0.25 * share + (o.values > 0 ? 0.15 : 0) }));
}

/** Values near the cursor whose class is looked for, and classes offered for each. */
const MAX_UNTYPED_VALUES = 3;
const MAX_CLASSES_PER_VALUE = 2;
/** Lines around the cursor within which a value's uses make it what the next line is about. */
const UNTYPED_VALUE_LINES = 12;
/** A member name declared by more classes than this (`name`, `get`) tells no class apart. */
const MAX_MEMBER_HOLDERS = 24;

/**
 * Classes of the values the function at the cursor uses members of without the graph knowing their
 * type (requests' `resp` in `resolve_redirects(self, resp, req, …)`: `resp.history`, `resp.raw`,
 * `resp.is_redirect` → `Response`), as a type checker infers them from the callers: the classes
 * declaring most of the member names used on the value (each weighted by how few classes declare
 * it), at least two of them and half their weight. Values used near the cursor count; `self`,
 * `cls` and names the buffer imports or defines at top level (modules, classes) are left to the resolver.
 */
function classesOfUntypedValues(q: QueryGraph, names: RepositoryNames): Array<{ id: string; score: number }> {
  const fn = q.enclosing.find((s) => s.kind === 'Function' || s.kind === 'Method');
  if (!fn) return [];
  const lines = `${q.query.prefix}${q.query.suffix}`.split('\n');
  const bound = new Set(['self', 'cls', ...q.file.imports.map((b) => b.local), ...q.file.symbols.filter((s) => s.parent === null).map((s) => s.name)]);
  const values = new Map<string, { members: Set<string>; distance: number }>();
  const last = Math.min(lines.length - 1, fn.range.endLine);
  for (let line = fn.range.startLine; line <= last; line++) {
    if (line === q.cursorLine) continue;
    const text = lines[line].replace(/#.*$/, '').replace(/(["'])(?:\\.|(?!\1)[^\\])*\1/g, '""');
    for (const m of text.matchAll(/(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)/g)) {
      if (bound.has(m[1])) continue;
      const v = values.get(m[1]) ?? values.set(m[1], { members: new Set(), distance: Infinity }).get(m[1])!;
      v.members.add(m[2]);
      v.distance = Math.min(v.distance, Math.abs(line - q.cursorLine));
    }
  }
  const near = [...values.entries()]
    .filter(([, v]) => v.members.size >= 2 && v.distance <= UNTYPED_VALUE_LINES)
    .sort((a, b) => a[1].distance - b[1].distance || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_UNTYPED_VALUES);
  const out: Array<{ id: string; score: number }> = [];
  for (const [, v] of near) {
    const owners = new Map<string, { keys: number; weight: number }>();
    let total = 0;
    for (const member of v.members) {
      const holders = new Set(names.classesWithMember(member).map((m) => m.owner));
      if (holders.size === 0 || holders.size > MAX_MEMBER_HOLDERS) continue;
      const weight = 1 / holders.size;
      total += weight;
      for (const owner of holders) {
        const o = owners.get(owner) ?? owners.set(owner, { keys: 0, weight: 0 }).get(owner)!;
        o.keys++;
        o.weight += weight;
      }
    }
    const ranked = [...owners.entries()]
      .map(([id, o]) => ({ id, keys: o.keys, share: o.weight / total }))
      .filter((r) => r.keys >= 2 && r.share >= 0.5)
      .sort((a, b) => b.share - a.share || b.keys - a.keys || (a.id < b.id ? -1 : 1))
      .slice(0, MAX_CLASSES_PER_VALUE);
    const proximity = Math.exp(-v.distance / PROXIMITY_LINES);
    for (const r of ranked) out.push({ id: r.id, score: 0.5 + 0.2 * r.share + 0.2 * proximity });
  }
  return out;
}

/** Types that extend `id`, two levels down, at most MAX_SUBTYPES: they have its members. */
function subtypes(graph: Graph, id: string): string[] {
  const out: string[] = [];
  let level = [id];
  for (let depth = 0; depth < 2 && level.length > 0 && out.length < MAX_SUBTYPES; depth++) {
    const next: string[] = [];
    for (const t of level) {
      graph.forEachInEdge(t, (_e, edge) => {
        if (edge.kind === 'INHERITS' && out.length < MAX_SUBTYPES && !out.includes(edge.source) && edge.source !== id) next.push(edge.source), out.push(edge.source);
      });
    }
    level = next;
  }
  return out;
}

/**
 * The import lines among the cursor's line and the nearest code lines above and below it, when the
 * cursor is at module level: empty when the cursor is not in an import block.
 */
function importLinesAround(q: QueryGraph): Set<number> {
  if (q.enclosing.length > 0) return new Set();
  const lines = `${q.query.prefix}${q.query.suffix}`.split('\n');
  const nearest = (step: number) => {
    for (let line = q.cursorLine + step; line >= 0 && line < lines.length; line += step) if (lines[line].trim() !== '') return line;
    return -1;
  };
  const importLines = new Set(q.file.imports.map((b) => b.line));
  const typing = /^\s*(from\s+\S+\s+)?import\b/.test(q.partialStatement);
  return new Set([q.cursorLine, nearest(-1), nearest(1)].filter((line) => importLines.has(line) || (line === q.cursorLine && typing)));
}

/**
 * Identifiers the buffer reads that nothing in it binds (no definition, import or parameter of that
 * name), strings, comments, attribute names (`.x`) and keys or parameters (`x:`) left out; in order of first use.
 */
function unboundNames(q: QueryGraph): string[] {
  const bound = new Set([...q.file.symbols.map((s) => s.name), ...q.file.imports.map((b) => b.local)]);
  const comment = q.query.language === 'python' ? /#.*$/gm : /\/\/.*$|\/\*[\s\S]*?\*\//gm;
  const code = `${q.query.prefix}\n${q.query.suffix}`.replace(comment, ' ').replace(/(["'`])(?:\\.|(?!\1)[^\\\n])*\1/g, ' ');
  const out = new Set<string>();
  for (const m of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)(?!\s*:(?!:))(?![\w$])/g)) {
    const name = m[1];
    if (name.length > 1 && !bound.has(name)) out.add(name);
  }
  return [...out];
}

/** Earlier definitions of the predicted kind whose uses are counted, and the share of them a target needs. */
const MAX_FOLLOWERS = 8;
const MIN_FOLLOWER_SHARE = 0.5;

/**
 * At module level, after the buffer's top-level definitions: the definitions that followed earlier
 * ones of the last definition's kind (its followers, nearest first) predict the next; the repository
 * definitions at least half of them use, with that share. Nothing when no follower uses anything outside the buffer.
 */
function nextDefinitionUses(graph: Graph, q: QueryGraph): Array<{ id: string; share: number }> {
  if (q.enclosing.length > 0) return [];
  const top = q.file.symbols.filter((s) => s.parent === null && s.range.endLine < q.cursorLine).sort((a, b) => a.range.startLine - b.range.startLine);
  const last = top[top.length - 1];
  if (!last) return [];
  const followers: string[] = [];
  for (let i = top.length - 2; i >= 0 && followers.length < MAX_FOLLOWERS; i--) {
    if (top[i].kind === last.kind && top[i + 1].kind !== last.kind) followers.push(symbolId(q.query.path, top[i + 1].localId));
  }
  if (followers.length < 2) return [];
  const counts = new Map<string, Set<string>>();
  const sources = new Set(followers);
  for (const edge of q.edges) {
    if (!sources.has(edge.source) || edge.kind === 'IMPORTS' || !graph.hasNode(edge.target)) continue;
    (counts.get(edge.target) ?? counts.set(edge.target, new Set()).get(edge.target)!).add(edge.source);
  }
  return [...counts.entries()]
    .map(([id, users]) => ({ id, share: users.size / followers.length }))
    .filter((u) => u.share >= MIN_FOLLOWER_SHARE)
    .sort((a, b) => b.share - a.share || (a.id < b.id ? -1 : 1));
}

/** Definitions offered after the last name of an open import or export list, per order (sorted, the module's). */
const NEXT_LISTED = 4;

/**
 * In an `import {` or `export {` list still open at the cursor: the file whose exported definitions
 * are most of the names listed so far (the module the list will name), and its exported definitions
 * that follow the last listed one in source order (lists are written in the module's order or
 * alphabetically: the next names in both orders, when the list is sorted so far), not listed yet.
 */
function nextListedDefinitions(graph: Graph, q: QueryGraph, names: RepositoryNames, listed: string[]): string[] {
  if (listed.length === 0) return [];
  const byFile = new Map<string, string[]>();
  for (const name of listed) {
    for (const id of names.named(name)) {
      const file = graph.hasNode(id) ? graph.getNodeAttributes(id).path : undefined;
      if (file && file !== q.query.path) (byFile.get(file) ?? byFile.set(file, []).get(file)!).push(id);
    }
  }
  const [file, ids] = [...byFile.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))[0] ?? [];
  if (!file || !ids || !graph.hasNode(moduleId(file))) return [];
  const defined: Array<{ id: string; line: number }> = [];
  graph.forEachOutEdge(moduleId(file), (_e, edge) => {
    const node = graph.getNodeAttributes(edge.target);
    if (edge.kind === 'CONTAINS' && node.exported && RETRIEVABLE.has(node.kind) && node.kind !== 'Module') defined.push({ id: edge.target, line: node.range?.startLine ?? 0 });
  });
  defined.sort((a, b) => a.line - b.line);
  const nameOf = (id: string) => graph.getNodeAttributes(id).name;
  const taken = new Set(listed);
  const inSourceOrder = defined.slice(defined.findIndex((d) => d.id === ids[ids.length - 1]) + 1).map((d) => d.id);
  // A list sorted so far goes on in sorted order: the module's names that sort after the last listed one.
  const key = (name: string) => name.toLowerCase();
  const sorted = listed.length >= 2 && listed.every((n, i) => i === 0 || key(listed[i - 1]) <= key(n));
  const lastKey = key(listed[listed.length - 1]);
  const inListOrder = sorted ? defined.map((d) => d.id).filter((id) => key(nameOf(id)) > lastKey).sort((a, b) => (key(nameOf(a)) < key(nameOf(b)) ? -1 : 1)) : [];
  const out = new Set<string>();
  for (const order of [inListOrder, inSourceOrder]) {
    for (const id of order.filter((id) => !taken.has(nameOf(id))).slice(0, NEXT_LISTED)) out.add(id);
  }
  return [...out];
}

/** Files importing one definition that are looked at, and the definitions offered from what they import. */
const MAX_IMPORTERS = 40;
const MAX_CO_IMPORTS = 6;
/**
 * Inside an open import block whose names live in many modules (a barrel), the next line is one
 * more name and little else is known about the code to come (the block is often all the buffer
 * holds): more of the likeliest names are offered, one signature line each.
 */
const MAX_BLOCK_CO_IMPORTS = 24;

/**
 * Definitions that the other files importing the buffer's imported definitions import too, by the
 * share of those files that do (at least two files); the buffer's own imports left out. Read from
 * the graph's IMPORTS edges, at most MAX_IMPORTERS files per imported definition.
 */
function coImported(graph: Graph, q: QueryGraph, own: ReadonlySet<string>, limit = MAX_CO_IMPORTS): Array<{ id: string; share: number }> {
  const importers = new Set<string>();
  for (const target of own) {
    if (!graph.hasNode(target) || graph.getNodeAttributes(target).kind === 'Module') continue;
    let n = 0;
    graph.forEachInEdge(target, (_e, edge) => {
      if (edge.kind === 'IMPORTS' && edge.source !== q.query.path && n < MAX_IMPORTERS && !importers.has(edge.source)) importers.add(edge.source), n++;
    });
  }
  return sharedImports(graph, [...importers], own, limit);
}

/**
 * What these files import, by the share of them that import it (at least two files, and `minShare` of
 * them), best first; the buffer's own imports (`own`) and the targets `skip` rejects left out.
 */
function sharedImports(graph: Graph, files: string[], own: ReadonlySet<string>, limit: number, minShare = 0, skip?: (target: GraphNode) => boolean): Array<{ id: string; share: number }> {
  const counts = new Map<string, number>();
  for (const file of files) {
    const seen = new Set<string>();
    graph.forEachOutEdge(file, (_e, edge) => {
      if (edge.kind !== 'IMPORTS' || own.has(edge.target) || seen.has(edge.target)) return;
      if (skip?.(graph.getNodeAttributes(edge.target))) return;
      seen.add(edge.target);
      counts.set(edge.target, (counts.get(edge.target) ?? 0) + 1);
    });
  }
  return [...counts.entries()]
    .filter(([, n]) => n >= 2 && n >= minShare * files.length)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([id, n]) => ({ id, share: n / files.length }));
}

/** Definitions offered from the folder's imports, and the share of its other files that import one to be offered. */
const MAX_FOLDER_IMPORTS = 6;
const MIN_FOLDER_SHARE = 0.3;
/**
 * Sibling files read at most, evenly spaced: a folder of generated code or migrations can hold thousands,
 * whose every import edge would be read on each completion at the top of a file; a share is as well
 * estimated from 200 (the largest folder of the 13 bench:context corpora has 176 files, so none is sampled).
 */
const MAX_FOLDER_SIBLINGS = 200;

/**
 * With the cursor above the buffer's first definition (outside any): the definitions most of the
 * other files of the buffer's folder import (at least two files and MIN_FOLDER_SHARE of them), by
 * that share; the buffer's own imports and definitions left out. A large folder is sampled (MAX_FOLDER_SIBLINGS).
 */
function folderImports(graph: Graph, q: QueryGraph): Array<{ id: string; share: number }> {
  if (q.enclosing.length > 0 || q.file.symbols.some((s) => s.range.startLine < q.cursorLine)) return [];
  const slash = q.query.path.lastIndexOf('/');
  const folder = folderId(slash < 0 ? '' : q.query.path.slice(0, slash));
  if (!graph.hasNode(folder)) return [];
  const siblings: string[] = [];
  graph.forEachOutEdge(folder, (_e, edge) => {
    if (edge.kind === 'CONTAINS' && edge.target !== q.query.path && graph.getNodeAttributes(edge.target).kind === 'Module') siblings.push(edge.target);
  });
  const read =
    siblings.length <= MAX_FOLDER_SIBLINGS ? siblings : Array.from({ length: MAX_FOLDER_SIBLINGS }, (_v, i) => siblings[Math.floor((i * siblings.length) / MAX_FOLDER_SIBLINGS)]);
  return sharedImports(graph, read, importedTargets(q), MAX_FOLDER_IMPORTS, MIN_FOLDER_SHARE, (target) => target.kind === 'External' || target.path === q.query.path);
}

/** What the buffer's import edges point at. */
function importedTargets(q: QueryGraph): Set<string> {
  return new Set(q.edges.filter((e) => e.kind === 'IMPORTS').map((e) => e.target));
}

/** How far back an open brace import or export list is looked for. */
const MAX_LIST_CHARS = 4_000;

/**
 * The brace import or re-export list the cursor is in while it is still open (`import {\n  a,\n  b as c,\n
 * ⟨cursor⟩`: TypeScript/JavaScript; undefined elsewhere): the names taken from the module (`b` of `b as c`,
 * `X` of `type X`), and whether the code after the cursor closes it with its module (fill-in-the-middle:
 * the import edges then say which module it is).
 */
export function openImportList(q: QueryGraph): { names: string[]; closedAfter: boolean } | undefined {
  if (q.query.language === 'python' || q.enclosing.length > 0) return undefined;
  const open = /(?:^|\n)\s*(?:import|export)\s*(?:type\s+)?\{([^{}]*)$/.exec(q.query.prefix.slice(-MAX_LIST_CHARS));
  if (!open) return undefined;
  const listed = open[1].replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ' ');
  const names = [...listed.matchAll(/(?:^|[,\s])(?:type\s+)?([A-Za-z_$][\w$]*)(?:\s+as\s+[A-Za-z_$][\w$]*)?\s*(?=,|$)/g)].map((m) => m[1]);
  return { names, closedAfter: /^[^{}]*\}\s*from\b/.test(q.query.suffix) };
}

/** Modules after the one imported nearest above the cursor that the next import line is likely to name. */
const NEXT_MODULES = 2;

/**
 * When the nearest code line above the cursor imports or re-exports from a module whose every
 * exported definition the buffer imports already (so the next line cannot be about it), the modules
 * of its folder that come after it in path order (blocks of one import per module are mostly sorted)
 * and that the buffer imports nothing from yet; at most NEXT_MODULES.
 */
function nextModulesOfFolder(graph: Graph, q: QueryGraph): string[] {
  if (q.enclosing.length > 0) return [];
  const lines = q.query.prefix.split('\n');
  let line = q.cursorLine - 1;
  while (line >= 0 && lines[line].trim() === '') line--;
  const statement = line < 0 ? null : /^\s*(?:(?:import|export)\b.*\bfrom\s*["']([^"']+)["']|from\s+(\S+)\s+import\b)/.exec(lines[line]);
  if (!statement) return [];
  // The module the line names, by the last part of its specifier (`./queryClient`, `.config`): re-exports carry no line (-1).
  const stem = (statement[1] ?? statement[2]).split(/[./]/).pop()!;
  const imports = q.edges.filter((e) => e.kind === 'IMPORTS' && graph.hasNode(e.target));
  const named = (e: GraphEdge) => moduleStem(graph.getNodeAttributes(e.target).path) === stem;
  const above = imports.find((e) => e.line === line && named(e)) ?? imports.find((e) => e.line === -1 && named(e));
  if (!above) return [];
  const last = moduleId(graph.getNodeAttributes(above.target).path);
  const slash = last.lastIndexOf('/');
  const folder = folderId(slash < 0 ? '' : last.slice(0, slash));
  if (!graph.hasNode(folder)) return [];
  // Names the buffer imports or re-exports (a re-export's edge points at the module, not the name).
  const bound = new Set<string>();
  for (const b of q.file.imports) bound.add(b.imported ?? b.local).add(b.local);
  for (const x of q.file.exports) bound.add(x.imported ?? x.exported).add(x.local ?? x.exported);
  let exhausted = true;
  graph.forEachOutEdge(last, (_e, edge) => {
    if (edge.kind === 'CONTAINS' && graph.getNodeAttributes(edge.target).exported && !bound.has(graph.getNodeAttributes(edge.target).name)) exhausted = false;
  });
  if (!exhausted) return [];
  const imported = new Set(imports.map((e) => graph.getNodeAttributes(e.target).path));
  const modules: string[] = [];
  graph.forEachOutEdge(folder, (_e, edge) => {
    if (edge.kind === 'CONTAINS' && graph.getNodeAttributes(edge.target).kind === 'Module') modules.push(edge.target);
  });
  modules.sort();
  return modules.slice(modules.indexOf(last) + 1).filter((m) => !imported.has(m) && m !== q.query.path).slice(0, NEXT_MODULES);
}

/** `internal/operators/audit.ts` → audit; a package's `json/__init__.py` → json. */
function moduleStem(path: string): string {
  const parts = path.replace(/\.[^./]+$/, '').split('/');
  const last = parts.pop()!;
  return last === '__init__' || last === 'index' || last === 'mod' ? (parts.pop() ?? last) : last;
}

/** Modules imported on `around` (import lines near the cursor). */
function modulesImportedAround(graph: Graph, q: QueryGraph, around: ReadonlySet<number>): string[] {
  const modules = new Set<string>();
  for (const edge of q.edges) {
    if (edge.kind !== 'IMPORTS' || !around.has(edge.line) || !graph.hasNode(edge.target)) continue;
    const node = graph.getNodeAttributes(edge.target);
    // A Go import points at its package's Folder: no module of its own to add.
    if (node.kind !== 'External' && node.kind !== 'Folder') modules.add(node.kind === 'Module' ? edge.target : moduleId(node.path));
  }
  return [...modules];
}

const MAX_OVERRIDE_CANDIDATES = 5;

/** The name typed so far on a method header in a class body: `    def ren` (Python), `  async ren` (TS); at least one character. */
function methodNameBeingTyped(q: QueryGraph): string | undefined {
  const line = q.partialStatement;
  const m = q.query.language === 'python'
    ? /^\s+(?:async\s+)?def\s+([A-Za-z_]\w*)$/.exec(line)
    : /^\s+(?:(?:public|protected|private|static|async|override|readonly|get|set)\s+)*([A-Za-z_$][\w$]*)$/.exec(line);
  return m?.[1];
}

/** Methods of `classes` or their ancestors whose name `matches` (the nearest level that has any, each class once). */
function findInHierarchy(graph: Graph, classes: string[], matches: (name: string) => boolean): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let level = classes.filter((c) => graph.hasNode(c));
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const next: string[] = [];
    for (const c of level) {
      if (seen.has(c)) continue;
      seen.add(c);
      const hits = new Set<string>();
      graph.forEachOutEdge(c, (_e, edge) => {
        if (edge.kind === 'HAS_METHOD' && matches(graph.getNodeAttributes(edge.target).name)) hits.add(edge.target);
        if (edge.kind === 'INHERITS') next.push(edge.target);
      });
      out.push(...hits);
    }
    if (out.length > 0) return out;
    level = next;
  }
  return out;
}
