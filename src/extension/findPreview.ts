// The picker's editor side, as VS Code's own pickers behave: the highlighted row is previewed once the
// highlight rests (not on every keystroke, which opened a large file per key and made typing stutter),
// previews never overtake each other (the last one asked for is the one shown), and Escape puts the
// editor, its selection and its scroll back where the user was.
import * as vscode from 'vscode';
import { definitionPosition } from './findRows';
import { log } from './log';

/** Where a row leads. */
export interface Target {
  file: vscode.Uri;
  line: number;
  /** The definition's name: its line is looked for under any decorators. */
  name?: string;
  /** A call site or other exact line: land there as is. */
  exact?: boolean;
}

/** How long the highlight must rest on a row before it is previewed. */
export const PREVIEW_DELAY_MS = 150;

/** Opens the target's file at the target (a preview without focus, or for good). */
export async function reveal(target: Target, preview: boolean): Promise<vscode.TextEditor | undefined> {
  try {
    const document = await vscode.workspace.openTextDocument(target.file);
    const at = target.exact || !target.name ? { line: target.line, col: 0 } : definitionPosition((i) => (i < document.lineCount ? document.lineAt(i).text : undefined), target.line, target.name);
    const start = new vscode.Position(at.line, at.col);
    const end = target.exact || !target.name ? start : start.translate(0, target.name.length);
    return await vscode.window.showTextDocument(document, { preview: true, preserveFocus: preview, selection: new vscode.Range(start, end) });
  } catch (error) {
    log().debug(`could not open ${target.file.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** The editor the picker was opened from, to return to on Escape. */
interface Origin {
  document: vscode.TextDocument;
  viewColumn: vscode.ViewColumn | undefined;
  selections: readonly vscode.Selection[];
  visible: vscode.Range | undefined;
}

export class Previewer {
  private readonly origin: Origin | undefined;
  private wanted: Target | undefined;
  private shownKey: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private previewedAny = false;
  private closed = false;

  constructor() {
    const editor = vscode.window.activeTextEditor;
    this.origin = editor && {
      document: editor.document,
      viewColumn: editor.viewColumn,
      selections: editor.selections,
      visible: editor.visibleRanges[0],
    };
  }

  /** The highlight moved: preview this target once it rests there (undefined: nothing to preview). */
  highlight(target: Target | undefined): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.wanted = target;
    if (!target) return;
    this.timer = setTimeout(() => void this.flush(), PREVIEW_DELAY_MS);
  }

  /** One preview at a time; when it finishes, the latest wish is shown if it is not already. */
  private async flush(): Promise<void> {
    if (this.running) return;
    this.running = (async () => {
      while (!this.closed && this.wanted && key(this.wanted) !== this.shownKey) {
        const target = this.wanted;
        this.previewedAny = true;
        await reveal(target, true);
        this.shownKey = key(target);
      }
    })();
    await this.running;
    this.running = undefined;
  }

  /** The picker closed: no more previews; on Escape (`restore`), back to the origin. */
  async close(restore: boolean): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    if (!restore || !this.previewedAny) return;
    if (!this.origin) {
      await closePreviewTab(this.shownKey);
      return;
    }
    const { document, viewColumn, selections, visible } = this.origin;
    if (document.isClosed && document.isUntitled) return;
    // Showing the user's tab again restores its own view state (selection and scroll); a tab the
    // previews replaced (it was a preview itself) comes back without one, and gets them set below.
    const options = { viewColumn, preserveFocus: false };
    const editor = document.isClosed ? await vscode.window.showTextDocument(document.uri, options) : await vscode.window.showTextDocument(document, options);
    if (!editor.selections.every((s, i) => selections[i]?.isEqual(s)) || editor.selections.length !== selections.length) editor.selections = [...selections];
    if (!visible || editor.visibleRanges[0]?.start.line === visible.start.line) return;
    // The first visible line back at the top. A reveal "at top" keeps context lines above (sticky
    // scroll) and an editor shown again may lay itself out after it: look, correct, a few times.
    const wanted = visible.start.line;
    let line = wanted;
    for (let tries = 0; tries < 5; tries++) {
      editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = editor.visibleRanges[0]?.start.line;
      if (now === undefined || now === wanted) break;
      line = Math.min(document.lineCount - 1, Math.max(0, line + wanted - now));
    }
  }
}

function key(target: Target): string {
  return `${target.file.toString()}:${target.line}`;
}

/** Opened from no editor: Escape closes the preview tab the picker opened (if it is still a preview). */
async function closePreviewTab(shown: string | undefined): Promise<void> {
  if (!shown) return;
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.isPreview && !tab.isDirty && tab.input instanceof vscode.TabInputText && shown.startsWith(`${tab.input.uri.toString()}:`)) {
        await vscode.window.tabGroups.close(tab);
      }
    }
  }
}
