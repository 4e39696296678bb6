// VS Code's own Call Hierarchy and Type Hierarchy views, answered from the graph, and an opt-in
// CodeLens ("3 callers · 2 subclasses") that puts the answer in the results view.
//
// Where a language server also answers: VS Code does not merge hierarchy providers, it asks the one
// whose document selector matches best, the latest registered on a tie. A language server's selector
// names its language (score 10, as does a scheme or a file pattern); ours is `language: '*'` (score 5),
// the fallback VS Code's own word-based highlighter uses, so the language server is asked wherever
// there is one (TypeScript's built-in one, Pylance, gopls…) and the graph answers where there is none
// (files outside the indexed folders get nothing): never twice, never in its place.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GraphNode } from '../core/model/schema';
import { SOURCE_EXTENSIONS } from '../core/parse/languages';
import type { Relation } from '../core/search/router';
import type { Repository } from '../core/service/repository';
import type { CommandHost } from './commandHost';
import type { ResultsTree } from './results/resultsTree';
import { rowsOf } from './results/resultsTree';

const FALLBACK: vscode.DocumentSelector = { language: '*' };
/** CodeLenses from all providers are shown together: ours go on the indexed languages' files. */
const INDEXED: vscode.DocumentSelector = { scheme: 'file', pattern: `**/*.{${SOURCE_EXTENSIONS.join(',')}}` };
const CALLABLE = new Set(['Function', 'Method']);
const TYPES = new Set(['Class', 'Interface', 'Enum']);
const LIMIT = 200;

/** Where an item came from, to ask the graph about it again. */
const origins = new WeakMap<vscode.CallHierarchyItem | vscode.TypeHierarchyItem, { repository: Repository; node: GraphNode }>();

export function registerHierarchies(host: CommandHost, results: ResultsTree): vscode.Disposable {
  const at = async (document: vscode.TextDocument, position: vscode.Position, kinds: Set<string>) => {
    const index = document.uri.scheme === 'file' ? host.indexFor(document.uri) : undefined;
    const repository = index?.repository;
    if (!index || !repository) return undefined;
    const rel = path.relative(index.root, document.uri.fsPath).split(path.sep).join('/');
    const id = await repository.nodeAtLine(rel, position.line);
    const node = id ? await repository.node(id) : undefined;
    return node && kinds.has(node.kind) ? { repository, node } : undefined;
  };
  return vscode.Disposable.from(
    vscode.languages.registerCallHierarchyProvider(FALLBACK, {
      prepareCallHierarchy: async (document, position) => {
        const found = await at(document, position, CALLABLE);
        return found && item(vscode.CallHierarchyItem, found.repository, found.node);
      },
      provideCallHierarchyIncomingCalls: async (from) => (await related(from, 'callers')).map(({ item: caller, site }) => new vscode.CallHierarchyIncomingCall(caller, [site ?? caller.selectionRange])),
      // The call sites of callees are not in the graph's answer: each callee is shown at the caller's name.
      provideCallHierarchyOutgoingCalls: async (from) => (await related(from, 'callees')).map(({ item: callee }) => new vscode.CallHierarchyOutgoingCall(callee, [from.selectionRange])),
    }),
    vscode.languages.registerTypeHierarchyProvider(FALLBACK, {
      prepareTypeHierarchy: async (document, position) => {
        const found = await at(document, position, TYPES);
        return found && item(vscode.TypeHierarchyItem, found.repository, found.node);
      },
      // The graph's class walks are transitive: the hierarchy shows one level, and opens the next on demand.
      provideTypeHierarchySupertypes: async (of) => (await related(of, 'superclasses', true)).map((r) => r.item),
      provideTypeHierarchySubtypes: async (of) => (await related(of, 'subclasses', true)).map((r) => r.item),
    }),
    registerCodeLens(host, results),
  );
}

function item<T extends vscode.CallHierarchyItem | vscode.TypeHierarchyItem>(
  Item: new (kind: vscode.SymbolKind, name: string, detail: string, uri: vscode.Uri, range: vscode.Range, selectionRange: vscode.Range) => T,
  repository: Repository,
  node: GraphNode,
): T | undefined {
  if (!node.path || !node.range) return undefined;
  const range = new vscode.Range(node.range.startLine, node.range.startCol, node.range.endLine, node.range.endCol);
  const start = new vscode.Position(node.range.startLine, node.range.startCol);
  const made = new Item(symbolKind(node.kind), node.name, node.qname, vscode.Uri.file(path.join(repository.root, node.path)), range, new vscode.Range(start, start));
  origins.set(made, { repository, node });
  return made;
}

/** The graph's answer to `<relation> of <item>`, as items (and the call site, for callers). */
async function related<T extends vscode.CallHierarchyItem | vscode.TypeHierarchyItem>(of: T, relation: Relation, directOnly = false): Promise<{ item: T; site?: vscode.Range }[]> {
  const origin = origins.get(of);
  if (!origin) return [];
  const { result, nodes } = await origin.repository.search(`${relation} of ${origin.node.qname}`, LIMIT);
  if (result.route !== 'structural') return [];
  const Item = of.constructor as new (...args: ConstructorParameters<typeof vscode.CallHierarchyItem>) => T;
  return result.hits.flatMap((hit, i) => {
    if (directOnly && (hit.path?.length ?? 2) > 2) return [];
    const made = item(Item, origin.repository, nodes[i]);
    if (!made) return [];
    return [{ item: made, site: hit.siteLine === undefined ? undefined : new vscode.Range(hit.siteLine, 0, hit.siteLine, 0) }];
  });
}

function symbolKind(kind: string): vscode.SymbolKind {
  const kinds: Record<string, vscode.SymbolKind> = { Function: vscode.SymbolKind.Function, Method: vscode.SymbolKind.Method, Class: vscode.SymbolKind.Class, Interface: vscode.SymbolKind.Interface, Enum: vscode.SymbolKind.Enum };
  return kinds[kind] ?? vscode.SymbolKind.Object;
}

/** `cartograph.codeLens.enabled`: counts over each function and class, resolved as they scroll into view. */
function registerCodeLens(host: CommandHost, results: ResultsTree): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const enabled = () => vscode.workspace.getConfiguration('cartograph').get<boolean>('codeLens.enabled', false);
  const lenses = new WeakMap<vscode.CodeLens, { repository: Repository; node: GraphNode }>();
  return vscode.Disposable.from(
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('cartograph.codeLens') && changed.fire()),
    vscode.languages.registerCodeLensProvider(INDEXED, {
      onDidChangeCodeLenses: changed.event,
      provideCodeLenses: async (document) => {
        const index = host.indexFor(document.uri);
        if (!enabled() || !index?.repository) return [];
        const repository = index.repository;
        const rel = path.relative(index.root, document.uri.fsPath).split(path.sep).join('/');
        return (await repository.nodesInFile(rel)).filter((n) => n.range && (CALLABLE.has(n.kind) || TYPES.has(n.kind))).map((node) => {
          const lens = new vscode.CodeLens(new vscode.Range(node.range!.startLine, 0, node.range!.startLine, 0));
          lenses.set(lens, { repository, node });
          return lens;
        });
      },
      resolveCodeLens: async (lens) => {
        const origin = lenses.get(lens);
        if (!origin) return lens;
        const relations: Relation[] = CALLABLE.has(origin.node.kind) ? ['callers'] : ['subclasses', 'callers'];
        const counts = await Promise.all(relations.map(async (relation) => {
          const { result } = await origin.repository.search(`${relation} of ${origin.node.qname}`, 1);
          return { relation, total: result.route === 'structural' ? (result.total ?? result.hits.length) : 0 };
        }));
        const words: Record<string, [string, string]> = { callers: ['caller', 'callers'], subclasses: ['subclass', 'subclasses'] };
        const title = counts.map(({ relation, total }) => `${total} ${words[relation][total === 1 ? 0 : 1]}`).join(' · ');
        const relation = counts.find((c) => c.total > 0)?.relation ?? relations[0];
        lens.command = { title, command: 'cartograph.showRelated', arguments: [origin.node.qname, relation, origin.repository.root], tooltip: `Show the ${relation} of ${origin.node.qname} in the Cartograph results view` };
        return lens;
      },
    }),
    vscode.commands.registerCommand('cartograph.showRelated', async (qname: string, relation: Relation, root: string) => {
      const repository = host.indexes().find((i) => i.root === root)?.repository;
      if (!repository) return;
      const query = `${relation} of ${qname}`;
      results.add({ title: query, relation, rows: await rowsOf(repository, query), empty: 'none in the graph' });
    }),
  );
}
