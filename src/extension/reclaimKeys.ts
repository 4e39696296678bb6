// The keys a user typed into the editor between the picker's chord and its box taking the focus,
// taken back: the editor is put back as it was and the keys go to the picker, ahead of what reached
// the box. VS Code gives an extension no way to show its picker before the extension host has run
// the command, so on a loaded machine (the integration machine, two cores for many processes) the
// first letters of a query can land in the code; earlyKeys.ts decides which edits were those keys.
import * as vscode from 'vscode';
import { EarlyKeys, FrontWriter } from './earlyKeys';
import { log } from './log';

/** Past this without a key in the box, the box has long had the focus: an edit is the user's own. */
const GAP_LIMIT_MS = 5_000;
/**
 * Keys that all went to the editor leave the box nothing to report: once they pause this long they are
 * taken back (a typist's keys come 30-150 ms apart; the box has usually shown by then). Long enough that
 * a stalled page (keys then arrive 0.3-0.5 s apart on a loaded machine) does not end the watch while the
 * user is still typing into the editor: the keys after it would be reverted with the file, not taken back.
 */
const KEY_PAUSE_MS = 700;
/** The keys taken back are written into the box once it has had no key for this long. */
const WRITE_QUIET_MS = 500;

export interface EarlyKeysInBox {
  /** What to search for the box's value: the keys taken back ahead of it, until they are written there. */
  query(value: string): string;
  dispose(): void;
}

/**
 * Takes back the keys that went to the editor (reclaimEarlyKeys) and puts them at the front of the
 * box once it has been quiet (FrontWriter); `searchAgain` once there are some.
 */
export function takeBackEarlyKeys(pick: vscode.QuickPick<vscode.QuickPickItem>, searchAgain: () => void): EarlyKeysInBox {
  const writer = new FrontWriter();
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const write = () => {
    clearTimeout(timer);
    const value = disposed ? undefined : writer.write();
    if (value !== undefined) pick.value = value; // VS Code reports it back as a change: searched as typed
  };
  const whenQuiet = () => {
    clearTimeout(timer);
    timer = setTimeout(write, WRITE_QUIET_MS);
  };
  const typing = pick.onDidChangeValue((value) => {
    const next = writer.changed(value);
    if (next === 'write') write();
    else if (next === 'wait') whenQuiet();
  });
  reclaimEarlyKeys(pick, (text) => {
    if (disposed) return;
    writer.start(text, pick.value);
    whenQuiet();
    searchAgain();
  });
  return {
    query: (value) => writer.query(value),
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      typing.dispose();
    },
  };
}

/**
 * Watches the active editor from the command's first turn until the box reports its first key (the
 * focus has moved there), the keys in the editor pause (KEY_PAUSE_MS), the picker closes, or GAP_LIMIT_MS. `reclaimed` gets the keys taken back,
 * once the editor is back as it was (not called when there were none, or the edits were not all keys).
 */
function reclaimEarlyKeys(pick: vscode.QuickPick<vscode.QuickPickItem>, reclaimed: (text: string) => void): void {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selections.length !== 1) return;
  const { document, selection } = editor;
  const wasDirty = document.isDirty;
  const selected = document.getText(selection);
  const keys = new EarlyKeys(document.offsetAt(selection.start), selected.length);
  let done = false;
  let pause: NodeJS.Timeout | undefined;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    clearTimeout(pause);
    for (const s of subscriptions) s.dispose();
    const text = keys.text;
    log().debug(`keys typed before the picker showed: ${JSON.stringify(text)}`);
    if (!text) return;
    putBack(editor, wasDirty, keys, selected, selection).then(
      (restored) => restored && reclaimed(text),
      (error: unknown) => log().warn(`putting back the keys typed before Find Where Implemented showed: ${error instanceof Error ? error.message : String(error)}`),
    );
  };
  const subscriptions = [
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== document || e.contentChanges.length === 0) return;
      if (!keys.add(e.contentChanges.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })))) return finish();
      clearTimeout(pause);
      const typed = keys.text;
      // A host that was busy runs an expired timer before reading the keys that came meanwhile: look
      // again after those are read (setImmediate runs after I/O), and finish only if none was a key.
      pause = setTimeout(() => setImmediate(() => keys.text === typed && finish()), KEY_PAUSE_MS);
    }),
    // (showing the picker reports its empty value as a change: not a key)
    pick.onDidChangeValue((value) => value && finish()),
    pick.onDidHide(finish),
  ];
  const timer = setTimeout(finish, GAP_LIMIT_MS);
}

/** The selected text back where the keys went, the document clean again if it was, the selection back. */
async function putBack(editor: vscode.TextEditor, wasDirty: boolean, keys: EarlyKeys, selected: string, selection: vscode.Selection): Promise<boolean> {
  const { document } = editor;
  const [from, to] = keys.span;
  const typed = new vscode.Range(document.positionAt(from), document.positionAt(to));
  if (document.getText(typed) !== keys.text) return false; // edited since: the user's now
  // A file that had no unsaved changes is reverted (an edit back would leave it marked unsaved); the
  // revert command acts on the active editor, which is this one unless a preview is showing.
  if (!wasDirty && vscode.window.activeTextEditor?.document === document) await vscode.commands.executeCommand('workbench.action.files.revert');
  else await editor.edit((b) => b.replace(typed, selected), { undoStopBefore: false, undoStopAfter: false });
  editor.selection = selection;
  return true;
}
