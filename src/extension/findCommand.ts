// Cartograph: Find Where Implemented… — a QuickPick that searches as you type across every indexed
// folder (names, structural questions, plain English), previews the highlighted result and reveals it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { filesQuery } from '../core/search/fileRanking';
import type { GraphNode } from '../core/model/schema';
import type { SearchHit, SearchResult } from '../core/search/types';
import type { CommandHost } from './commandHost';
import { findFiles } from './findFiles';
import { Previewer, registerPreviewDocuments, reveal, type Target } from './findPreview';
import { emptyMessage, externalMessage, indexingMessage, rowDescription, searchTitle, type MessageRow } from './findRows';
import { log } from './log';
import { requestSearchModels } from './models';
import { takeBackEarlyKeys } from './reclaimKeys';
import { TypingSearch } from './typingSearch';

export interface FoundItem extends vscode.QuickPickItem {
  /** The node's id; '' for the rows that are not results (messages, "show more"). */
  id: string;
  score: number;
  file?: vscode.Uri;
  /** Zero-based line a pick lands on: the call site for a caller, else the definition's first line. */
  line?: number;
  /** The folder whose graph holds the node, and the node ids that led to it (structural and MCTS hits). */
  root?: string;
  qname?: string;
  path?: string[];
  /** Where the row leads (results in the workspace). */
  target?: Target;
  /** What picking the row says instead of opening anything (an External symbol). */
  message?: string;
  /** Picking the row shows more results. */
  more?: boolean;
}

/** A result the user picked, for the graph explorer to highlight with the path that found it. */
export interface FoundResult {
  root: string;
  id: string;
  path: string[];
}
const didFind = new vscode.EventEmitter<FoundResult>();
export const onDidFind = didFind.event;

/** The picker put the answer to `query` on screen (for tests and the picker benchmark). */
export interface ShownAnswer {
  query: string;
  rows: number;
  /** Date.now() when the rows were handed to VS Code. */
  at: number;
}
const didShow = new vscode.EventEmitter<ShownAnswer>();
export const onDidShowAnswer = didShow.event;
/** A structural question the picker answered last, as it closed: the results view keeps it. */
export interface StructuralAnswer {
  query: string;
  items: FoundItem[];
}
const didKeep = new vscode.EventEmitter<StructuralAnswer>();
export const onDidKeepAnswer = didKeep.event;

/** The picker closed and is done with the editor (Escape: the user's editor is back). */
/** Fires with the picker that closed (once each, after its preview is gone). */
const didClose = new vscode.EventEmitter<vscode.QuickPick<FoundItem>>();
export const onDidClosePicker = didClose.event;

/** Rows shown at first, and added by each "Show more". */
const PAGE = 30;
/**
 * Keys typed faster than this are one query: it is searched once the typing pauses (VS Code's Go to
 * Symbol in Workspace waits 200 ms). Searching as each key arrived cost the engine 0.2-0.5 s of CPU
 * per question on zod and replaced the list each time, on the cores the window types on: the
 * picker's late frames (docs/benchmarks.md). The last value is always searched (trailing edge).
 */
export const TYPING_PAUSE_MS = 150;

export interface Found {
  results: SearchResult[];
  items: FoundItem[];
  /** More hits exist than the items hold. */
  more: boolean;
}

/**
 * One ranked list over all folders; the route and its reason are in the results for tests and the UI.
 * Every folder is asked at once (each answers from its own engine); with several, `onRows` gets the
 * ranked rows of those that answered while the others still search.
 */
export async function findWhereImplemented(host: CommandHost, query: string, limit = PAGE, onRows?: (items: FoundItem[]) => void): Promise<Found> {
  const question = filesQuery(query);
  if (question !== undefined) return findFiles(host, question, limit);
  // The first search starts loading the search models; it never waits for them.
  requestSearchModels();
  const active = vscode.window.activeTextEditor?.document.uri;
  const folders = host.indexes().filter((index) => index.repository);
  // Per folder, in the folders' order: rows of equal score keep that order, whichever answers first.
  const answers: ({ result: SearchResult; items: FoundItem[] } | undefined)[] = folders.map(() => undefined);
  const ranked = () => answers.flatMap((a) => a?.items ?? []).sort((a, b) => b.score - a.score);
  await Promise.all(folders.map(async (index, f) => {
    // From the active editor when it is in this folder: shared names resolve near the code being read.
    const fromPath = active?.scheme === 'file' && index.contains(active.fsPath) ? path.relative(index.root, active.fsPath).split(path.sep).join('/') : undefined;
    // One more than shown: whether there is more to show.
    const { result, nodes } = await index.repository!.search(query, limit + 1, { fromPath });
    answers[f] = { result, items: result.hits.map((hit, i) => foundItem(index.root, hit, nodes[i])) };
    if (onRows && answers.some((a) => !a)) onRows(ranked().slice(0, limit));
  }));
  const results = answers.flatMap((a) => (a ? [a.result] : []));
  const items = ranked();
  const more = items.length > limit || results.some((r) => (r.total ?? 0) > r.hits.length);
  return { results, items: items.slice(0, limit), more };
}

function foundItem(root: string, hit: SearchHit, node: GraphNode): FoundItem {
  const file = node.path ? vscode.Uri.file(path.join(root, node.path)) : undefined;
  const line = hit.siteLine ?? node.range?.startLine;
  return {
    id: hit.id,
    score: hit.score,
    file,
    line,
    root,
    qname: node.qname,
    path: hit.path,
    target: file && line !== undefined ? { file, line, name: node.name, exact: hit.siteLine !== undefined } : undefined,
    message: node.kind === 'External' ? externalMessage(node) : undefined,
    label: `${kindIcon(node.kind)} ${node.name}`,
    description: rowDescription(node, line, hit.compiledTo),
    detail: node.signature || node.qname,
    alwaysShow: true,
  };
}

/**
 * The command the key chord runs: the same picker under an id no extension declares. VS Code runs a
 * command the first time only after asking every extension host to activate for `onCommand:<id>`,
 * which every command in `contributes.commands` declares implicitly; that round trip (0.3-0.8 s in
 * code-server) came between the chord and the picker, and the keys typed meanwhile went into the
 * editor. An id nothing activates on runs at once, from the first press.
 */
export const FIND_KEY_COMMAND = 'cartograph.findWhereImplemented.key';

export function registerFindCommand(host: CommandHost): vscode.Disposable {
  return vscode.Disposable.from(
    registerPreviewDocuments(),
    vscode.commands.registerCommand('cartograph.findWhereImplemented', (initial?: string) => openPicker(host, initial, false)),
    vscode.commands.registerCommand(FIND_KEY_COMMAND, () => openPicker(host, undefined, true)),
  );
}

/**
 * Everything up to `pick.show()` runs in the command's first turn, with no await before it: a key
 * that arrives after the chord finds the box open and focused (the picker opens at once, its rows
 * come in as the search answers). Opened by its keys (`fromKeys`), keys that still reached the editor
 * first are taken back into the box (reclaimKeys.ts).
 */
async function openPicker(host: CommandHost, initial: string | undefined, fromKeys: boolean): Promise<vscode.QuickPick<FoundItem>> {
  const pick = vscode.window.createQuickPick<FoundItem>();
  pick.placeholder = 'A name (Calculator.add), a question (callers of add) or plain English (where do we parse dates?)';
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  // The rows are ranked by the search: VS Code must not re-sort them by how their labels match what
  // was typed, on every key (its own Go to Symbol in Workspace turns this off too). The property is
  // still a proposal in @types/vscode: where a VS Code lacks or refuses it, the picker works as before.
  try {
    (pick as { sortByLabel?: boolean }).sortByLabel = false;
  } catch {
    // the rows are re-sorted by label as they were before
  }
  const previewer = new Previewer();
  let limit = PAGE;
  let shownKey = '';
  let structural: StructuralAnswer | undefined;
  const setRows = (items: FoundItem[]) => {
    // The same rows again (a key that did not change the answer) keep the list and its highlight.
    const key = items.map((i) => `${i.id}|${i.label}|${i.description}`).join('\n');
    if (key !== shownKey) {
      shownKey = key;
      pick.items = items;
    }
  };
  const show = (query: string, title: string | undefined, items: FoundItem[]) => {
    structural = undefined;
    if (pick.title !== title) pick.title = title;
    setRows(items);
    didShow.fire({ query, rows: items.length, at: Date.now() });
  };
  // The box's value is searched with the keys taken back from the editor before it (until they are in it).
  const early = fromKeys ? takeBackEarlyKeys(pick, () => void searches.now(pick.value)) : undefined;
  const run = async (value: string) => {
    const query = early ? early.query(value) : value;
    if (!query.trim()) return show(query, undefined, []);
    const indexing = indexingMessage(host.indexes().map((i) => ({ name: i.folder.name, state: i.state })));
    if (indexing && !host.indexes().some((i) => i.repository && i.state.kind === 'ready')) return show(query, 'Cartograph is indexing', [messageItem(indexing)]);
    let found: Found;
    try {
      // The rows of the folders that answered, while the others search (the title waits for all).
      found = await findWhereImplemented(host, query, limit, (partial) => pick.value === value && partial.length > 0 && setRows(partial));
    } catch (error) {
      log().error(`Find Where Implemented failed for "${query}": ${error instanceof Error ? error.message : String(error)}`);
      return show(query, 'Search failed (see Cartograph: Show Log)', []);
    }
    if (pick.value !== value) return; // a newer query is waiting: this answer is stale
    const { results, items, more } = found;
    for (const r of results) log().debug(`find "${query}": ${r.route}, ${r.reason}`);
    const title = searchTitle(query, results.map((r) => ({ route: r.route, reason: r.reason, vias: r.hits.map((h) => h.via), total: r.total })), items.length, more);
    const rows = items.length === 0 ? [messageItem(emptyMessage(query, results))] : items;
    if (more) rows.push({ id: '', score: 0, more: true, label: '$(ellipsis) Show more results', alwaysShow: true });
    if (indexing) rows.push(messageItem(indexing));
    show(query, title, rows);
    structural = results.some((r) => r.route === 'structural') ? { query, items } : undefined;
  };
  // Searches once the typing pauses, one at a time, for the latest value (run() drops a stale answer).
  const searches = new TypingSearch(run, (busy) => (pick.busy = busy), TYPING_PAUSE_MS);
  const request = (value: string) => searches.now(value);
  const subscriptions = [
    pick.onDidChangeValue((value) => {
      limit = PAGE;
      searches.typed(value);
    }),
    pick.onDidChangeActive(([item]) => previewer.highlight(item?.target)),
    pick.onDidAccept(() => {
      const [item] = pick.selectedItems;
      if (!item || (!item.target && !item.message && !item.more)) return; // a message row: nothing to open
      if (item.more) {
        limit += PAGE;
        void request(pick.value);
        return;
      }
      if (item.message) {
        // An External symbol has no file here: say so on its row, and leave the picker open for another pick.
        const explained: FoundItem = { ...item, detail: `$(info) ${item.message}` };
        pick.items = pick.items.map((i) => (i === item ? explained : i));
        pick.activeItems = [explained];
        return;
      }
      pick.hide();
      if (item.root) didFind.fire({ root: item.root, id: item.id, path: item.path ?? [] });
      if (item.target) void reveal(item.target);
    }),
    // "Indexing…" turns into results when the folder is ready, without a key pressed.
    ...host.indexes().map((index) =>
      index.onDidChangeState(() => {
        if (pick.value.trim() && (index.state.kind === 'ready' || index.state.kind === 'error' || pick.title === 'Cartograph is indexing')) void request(pick.value);
      }),
    ),
  ];
  let hidden = false;
  pick.onDidHide(() => {
    // VS Code reports a hide the user made (Escape) again when the picker is disposed, below
    if (hidden) return;
    hidden = true;
    if (structural) didKeep.fire(structural);
    early?.dispose();
    searches.dispose();
    for (const s of subscriptions) s.dispose();
    void previewer.close().finally(() => didClose.fire(pick));
    pick.dispose();
  });
  // On a loaded machine the box can show a second or more after the chord: the real-VS-Code tests
  // hold it back that long on purpose (CARTOGRAPH_TEST_HOLD_PICKER_MS) to type into the editor meanwhile.
  const holdBack = Number(process.env.CARTOGRAPH_TEST_HOLD_PICKER_MS) || 0;
  const showBox = () => {
    pick.show();
    early?.shown();
  };
  if (holdBack > 0) setTimeout(() => !hidden && showBox(), holdBack);
  else showBox();
  // The first query of a session would wait for the search indexes (1-2 s on Django): build them
  // while the user types.
  for (const index of host.indexes()) {
    index.repository?.prepareSearch().catch((error: unknown) => log().warn(`preparing search for ${index.folder.name}: ${error instanceof Error ? error.message : String(error)}`));
  }
  if (initial) {
    pick.value = initial;
    await request(initial);
  }
  return pick;
}

function messageItem(row: MessageRow): FoundItem {
  return { id: '', score: 0, label: row.label, detail: row.detail, alwaysShow: true };
}

function kindIcon(kind: string): string {
  const icons: Record<string, string> = {
    Class: '$(symbol-class)', Interface: '$(symbol-interface)', Enum: '$(symbol-enum)', TypeAlias: '$(symbol-type-parameter)',
    Function: '$(symbol-function)', Method: '$(symbol-method)', Field: '$(symbol-field)', GlobalVariable: '$(symbol-variable)',
    Module: '$(symbol-file)', External: '$(link-external)',
  };
  return icons[kind] ?? '$(symbol-misc)';
}
