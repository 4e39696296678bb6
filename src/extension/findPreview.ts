// The picker's editor side. The highlighted row is previewed once the highlight rests (not on every
// keystroke, which opened a large file per key and made typing stutter), previews never overtake each
// other (the last one asked for is the one shown), and closing the picker closes the preview.
//
// A search must never change code. VS Code's text editors in a group share one widget, and the focus
// the picker gives back on Escape goes to that widget: when previews replaced the user's editor in its
// group, the keys typed right after Escape went into whatever the group showed before the extension
// host could show the user's editor again, over the name a preview had selected. So previews open
// beside the user's editor, never in its place: Escape gives the focus back to the user's editor as
// the user left it, at once, with nothing to restore. A preview is a read-only copy of the file (its
// own scheme, served from the open document or the disk), its line marked by a decoration, never a
// selection; its tab (and the group it opened) is closed however the picker ends.
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
/** The scheme of preview documents: read-only copies of workspace files. */
export const PREVIEW_SCHEME = 'cartograph-preview';

/** Serves a preview: the file's text as the editor has it (unsaved edits included), else as on disk. */
export function registerPreviewDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
    async provideTextDocumentContent(uri) {
      const file = uri.with({ scheme: 'file', query: '' });
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
      return open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    },
  });
}

let highlightType: vscode.TextEditorDecorationType | undefined;
/** The previewed line, drawn as VS Code draws the range a picker previews (Go to Symbol in Editor). */
function previewHighlight(): vscode.TextEditorDecorationType {
  highlightType ??= vscode.window.createTextEditorDecorationType({ isWholeLine: true, backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground') });
  return highlightType;
}

/** Where in `document` the target lands: a definition's name (under its decorators), or the exact line. */
function landing(document: vscode.TextDocument, target: Target): vscode.Position {
  const at = target.exact || !target.name ? { line: target.line, col: 0 } : definitionPosition((i) => (i < document.lineCount ? document.lineAt(i).text : undefined), target.line, target.name);
  return new vscode.Position(at.line, at.col);
}

/**
 * Opens the picked target for good, the cursor at the name. The name is not selected (as Go to Symbol
 * would): a key that reached the editor before a picker opened again would replace it.
 */
export async function reveal(target: Target): Promise<vscode.TextEditor | undefined> {
  try {
    const document = await vscode.workspace.openTextDocument(target.file);
    const at = landing(document, target);
    return await vscode.window.showTextDocument(document, { preview: true, selection: new vscode.Range(at, at) });
  } catch (error) {
    log().debug(`could not open ${target.file.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** Shows the read-only copy of the target's file, the focus left in the picker. */
async function preview(target: Target, viewColumn: vscode.ViewColumn, session: string): Promise<void> {
  try {
    const document = await vscode.workspace.openTextDocument(target.file.with({ scheme: PREVIEW_SCHEME, query: session }));
    const at = landing(document, target);
    const editor = await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, viewColumn });
    const line = new vscode.Range(at, at);
    editor.revealRange(line, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    editor.setDecorations(previewHighlight(), [line]);
  } catch (error) {
    log().debug(`could not preview ${target.file.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

let sessions = 0;

export class Previewer {
  /** Beside the user's editor; in the active group when the picker was opened from no editor. */
  private readonly column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  /** Each picker's previews are documents of their own: a file read for an earlier picker may have changed since. */
  private readonly session = String(++sessions);
  private wanted: Target | undefined;
  private shownKey: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

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
        await preview(target, this.column, this.session);
        this.shownKey = key(target);
      }
    })();
    await this.running;
    this.running = undefined;
  }

  /** The picker closed: no more previews, and the preview tabs are closed once the one in flight is shown. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    await closePreviewTabs();
  }
}

function key(target: Target): string {
  return `${target.file.toString()}:${target.line}`;
}

/** Closes the tabs previews left (a preview the user pinned, by double-clicking its tab, stays); a group they opened goes with them. */
async function closePreviewTabs(): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.isPreview && t.input instanceof vscode.TabInputText && t.input.uri.scheme === PREVIEW_SCHEME);
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}
