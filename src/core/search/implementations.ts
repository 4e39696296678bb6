// One answer per function, where its body is. The graph keeps declarations that are not the body as
// definitions of their own, which a search that lists nodes would show again and again:
// - Overloads: in TypeScript each signature, the implementation and a getter's setter are `f`, `f@2`, …
//   (parse/typescript/); rxjs' `generate` filled five of ten answers. In Python, `@overload`s, a
//   property's getter and setter, and a redefinition under `if`/`else`.
// - Type stubs beside the code: `datastructures.pyi` next to `datastructures.py` (werkzeug), `x.d.ts`
//   next to `x.js`; every class and method of the module twice.
// - Compiled twins: JavaScript shipped beside (or mirroring) the TypeScript it was built from
//   (compiledTwins.ts): zod's `ZodString` four to six times, every caller twice.
// Other languages keep their `@N` twins apart: Java overloads and Rust trait impls are separate
// implementations, each with its own body.
import type { ReadonlyGraph } from '../graph/describe';
import type { Language } from '../model/schema';
import { compiledTo, sourceTwin } from './compiledTwins';
import type { SearchHit } from './types';

type Graph = ReadonlyGraph;

/** Where same-named definitions in one scope are one function: overloads, a property's getter and setter, a redefinition. */
const OVERLOADING: ReadonlySet<Language | ''> = new Set(['typescript', 'tsx', 'javascript', 'python']);

/** A stub file's extension → the extensions of the files whose code it declares. */
const STUBS: [RegExp, string[]][] = [
  [/\.pyi$/, ['.py']],
  [/\.d\.ts$/, ['.ts', '.tsx', '.js', '.jsx']],
  [/\.d\.mts$/, ['.mts', '.mjs']],
  [/\.d\.cts$/, ['.cts', '.cjs']],
];

/** The id shared by a definition's overloads: `f@3` → `f`. */
const groupOf = (id: string): string => id.replace(/@\d+$/, '');

/**
 * One hit per function: a stub's declaration becomes the definition it declares (when the code has
 * it), and an overloaded function one hit pointing at its body ({@link bodyOf}). Each keeps its
 * best-ranked place and score; order and every other hit are kept. A hit in TypeScript that was
 * compiled to JavaScript says to which files (its copies there are never hits of their own).
 * The first `limit` are made from the hits before them only: a ranking of thousands is read no further.
 */
export function collapseToImplementations(graph: Graph, hits: readonly SearchHit[], limit = Infinity): SearchHit[] {
  const seen = new Set<string>();
  const out: SearchHit[] = [];
  for (const hit of hits) {
    if (out.length >= limit) break;
    // The definition with the body is one per function: it is also what tells hits of one function apart.
    const body = bodyOf(graph, codeOf(graph, hit.id));
    if (seen.has(body)) continue;
    seen.add(body);
    const twins = compiledTo(graph, graph.hasNode(body) ? graph.getNodeAttribute(body, 'path') : '');
    out.push(body === hit.id && twins.length === 0 ? hit : { ...hit, id: body, ...(twins.length > 0 ? { compiledTo: twins } : {}) });
  }
  return out;
}

/**
 * `ids` grouped by function: each group under the id collapseToImplementations gives it, with every
 * definition that stands for it (an overloaded function's signatures, a stub's declaration), so that
 * a question about the function's edges is asked of all of them at once.
 */
export function byImplementation(graph: Graph, ids: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of ids) {
    const code = codeOf(graph, id);
    const body = bodyOf(graph, code);
    const members = out.get(body) ?? [...new Set([body, ...overloadsOf(graph, groupOf(code))])];
    if (!members.includes(id)) members.push(id);
    out.set(body, members);
  }
  return out;
}

/** The function `id` is a definition of: its body's id and every definition standing for it (see {@link byImplementation}). */
export function functionOf(graph: Graph, id: string): { body: string; members: string[] } {
  const [[body, members]] = byImplementation(graph, [id]);
  return { body, members };
}

/** A TypeScript/JavaScript accessor's signature: `get value(): T`, `static set value(v)`. */
const ACCESSOR = /^(?:(?:public|protected|private|static|override|abstract|declare)\s+)*(get|set)\s/;

/**
 * The member of `id`'s overloads that is the function's body; `id` when it has none. TypeScript and
 * JavaScript: the getter of an accessor pair, else the last member (the implementation follows its
 * signatures; a signature may be longer than the body, as rxjs' `pipe` with nine operators is). Python
 * cannot tell a property's getter from an `@overload` by its signature: the longest source (overloads'
 * bodies are `...`).
 */
function bodyOf(graph: Graph, id: string): string {
  const members = overloadsOf(graph, groupOf(id));
  if (members.length < 2) return id;
  if (graph.getNodeAttribute(members[0], 'language') === 'python') return members.reduce((a, b) => (lines(graph, b) > lines(graph, a) ? b : a));
  return members.find((m) => ACCESSOR.exec(graph.getNodeAttribute(m, 'signature'))?.[1] === 'get') ?? members[members.length - 1];
}

/**
 * The definition `id` stands for in code that was written, not generated: a stub's declaration is the
 * definition in the code file beside it, and compiled JavaScript's the one in its TypeScript source
 * (compiledTwins.ts); the id itself otherwise.
 */
function codeOf(graph: Graph, id: string): string {
  // A declaration file's own source first: it has the types the JavaScript beside it lacks (an interface, an enum's member).
  const source = sourceTwin(graph, id);
  return source !== id ? source : sourceTwin(graph, declaredBy(graph, id));
}

/** The definition a stub's declaration stands for, in the code file beside the stub; the id itself otherwise. */
function declaredBy(graph: Graph, id: string): string {
  const hash = id.indexOf('#');
  if (hash < 0) return id;
  const file = id.slice(0, hash);
  for (const [stub, extensions] of STUBS) {
    if (!stub.test(file)) continue;
    for (const ext of extensions) {
      // A stub's `@overload`s (`get`, `get@2`, …) stand for the one definition the code has.
      const code = `${file.replace(stub, ext)}${id.slice(hash)}`;
      if (graph.hasNode(code)) return code;
      if (graph.hasNode(groupOf(code))) return groupOf(code);
    }
  }
  return id;
}

/** The TypeScript or Python definitions that share `group`'s name and kind in one scope: `group`, `group@2`, …; [] otherwise. */
function overloadsOf(graph: Graph, group: string): string[] {
  if (!graph.hasNode(group) || !graph.hasNode(`${group}@2`)) return [];
  const first = graph.getNodeAttributes(group);
  if (!OVERLOADING.has(first.language)) return [];
  const members = [group];
  for (let n = 2; graph.hasNode(`${group}@${n}`); n++) {
    // Declaration merging (`class X` and `interface X`) shares a name, not a body: only same-kind twins are overloads.
    if (graph.getNodeAttribute(`${group}@${n}`, 'kind') === first.kind) members.push(`${group}@${n}`);
  }
  return members;
}

const lines = (graph: Graph, id: string): number => {
  const range = graph.getNodeAttribute(id, 'range');
  return range ? range.endLine - range.startLine : 0;
};
