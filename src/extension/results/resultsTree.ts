// The Cartograph results view: the last structural answers (callers, subclasses, importers…) and
// change impacts, kept as trees after the picker closes. A row opens its path:line; a row of a
// structural answer expands into the same question about itself (callers of a caller, and so on),
// asked of the search that answered the first, so the tree and the picker never disagree.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Relation } from '../../core/search/router';
import type { Repository } from '../../core/service/repository';
import { rowDescription } from '../findRows';

export const RESULTS_VIEW = 'cartograph.results';
/** Answers kept; the oldest goes when another comes. */
const KEPT = 10;
/** Rows asked for when a row is expanded. */
const CHILDREN = 50;

/** A definition in an answer. */
export interface ResultRow {
  label: string;
  description?: string;
  /** The file and zero-based line the row opens. */
  file?: vscode.Uri;
  line?: number;
  /** The qualified name a structural question about this row asks about, and the repository asked. */
  qname?: string;
  repository?: Repository;
  /** An impact row: the chain of edges from the change, shown as its tooltip. */
  chain?: string;
  /** Rows under this one, known already (what a changed definition affects). */
  children?: ResultRow[];
}

export interface Answer {
  title: string;
  /** The question's relation: rows expand into the same question about themselves. */
  relation?: Relation;
  rows: ResultRow[];
  /** Said when there are no rows (an empty answer is an answer). */
  empty?: string;
}

type Node = { answer: Answer } | { row: ResultRow; relation?: Relation };

export class ResultsTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly answers: { answer: Answer }[] = [];
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view = vscode.window.createTreeView(RESULTS_VIEW, { treeDataProvider: this });

  /**
   * Keeps `answer` on top (in place of an older answer to the same question) and shows it, the focus
   * left where it is: the picker has just given it back to the editor, where the user types next.
   */
  add(answer: Answer): void {
    const same = this.answers.findIndex((a) => a.answer.title === answer.title);
    if (same >= 0) this.answers.splice(same, 1);
    const node = { answer };
    this.answers.unshift(node);
    this.answers.splice(KEPT);
    this.changed.fire(undefined);
    void this.view.reveal(node, { select: false, focus: false, expand: true });
  }

  /** The answers kept, newest first (for tests). */
  get kept(): readonly Answer[] {
    return this.answers.map((a) => a.answer);
  }

  /** Only answers are revealed, and they are at the top. */
  getParent(): undefined {
    return undefined;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if ('answer' in node) {
      const { answer } = node;
      const item = new vscode.TreeItem(answer.title, vscode.TreeItemCollapsibleState.Expanded);
      item.description = answer.rows.length ? `${answer.rows.length}` : answer.empty;
      item.iconPath = new vscode.ThemeIcon(answer.relation ? 'type-hierarchy' : 'diff');
      return item;
    }
    const { row, relation } = node;
    const expandable = row.children?.length || (relation && row.qname && row.repository);
    const item = new vscode.TreeItem(row.label, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.description = row.description;
    item.tooltip = row.chain;
    if (row.file) {
      item.resourceUri = row.file;
      const at = new vscode.Position(row.line ?? 0, 0);
      item.command = { command: 'vscode.open', title: 'Open', arguments: [row.file, { selection: new vscode.Range(at, at), preview: true }] };
    }
    return item;
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) return this.answers;
    if ('answer' in node) return node.answer.rows.map((row) => ({ row, relation: node.answer.relation }));
    const { row, relation } = node;
    if (row.children) return row.children.map((child) => ({ row: child }));
    if (!relation || !row.qname || !row.repository) return [];
    return (await rowsOf(row.repository, `${relation} of ${row.qname}`)).map((child) => ({ row: child, relation }));
  }

  dispose(): void {
    this.view.dispose();
    this.changed.dispose();
  }
}

/** A question's answer from one repository, as rows (the call site for a caller, else the definition). */
export async function rowsOf(repository: Repository, query: string, limit = CHILDREN): Promise<ResultRow[]> {
  const root = repository.root;
  const { result, nodes } = await repository.search(query, limit);
  if (result.route !== 'structural') return [];
  return result.hits.map((hit, i) => {
    const node = nodes[i];
    const line = hit.siteLine ?? node.range?.startLine;
    return {
      label: node.name,
      description: rowDescription(node, line, hit.compiledTo),
      file: node.path ? vscode.Uri.file(path.join(root, node.path)) : undefined,
      line,
      qname: node.qname,
      repository,
    };
  });
}
