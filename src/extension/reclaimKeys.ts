// The keys a user typed into the editor between the picker's chord and its box taking the focus,
// taken back: the editor is put back as it was and the keys go to the picker, ahead of what reached
// the box. VS Code gives an extension no way to show its picker before the extension host has run
// the command, so on a loaded machine (the integration machine, two cores for many processes) the
// first letters of a query can land in the code; earlyKeys.ts decides which edits were those keys.
import * as vscode from 'vscode';
import { EarlyKeysWatch, FrontWriter } from './earlyKeys';
import { log } from './log';

/** Past this without a key in the box, the box has long had the focus: an edit is the user's own. */
const GAP_LIMIT_MS = 5_000;
/**
 * Keys that all went to the editor leave the box nothing to report: once they pause this long they are
 * taken back (a typist's keys come 30-150 ms apart; the box has usually shown by then). The watch goes
 * on after: a stalled page sends keys 0.3-0.5 s apart, and those typed while a put back is on its way
 * make it fail and go with the next one.
 */
const KEY_PAUSE_MS = 700;
/** The keys taken back are written into the box once it has had no key for this long. */
const WRITE_QUIET_MS = 500;

export interface EarlyKeysInBox {
  /** What to search for the box's value: the keys taken back in it, until they are written there. */
  query(value: string): string;
  /**
   * The picker's `show()` has been called. Until then nothing is written into the box: a value set
   * before goes to VS Code with the show, and the box can come up without it (keys lost).
   */
  shown(): void;
  dispose(): void;
}

/**
 * Takes back the keys that went to the editor (watchEditor) and puts them at the front of the box
 * once it has been quiet (FrontWriter); `searchAgain` each time some are taken.
 */
export function takeBackEarlyKeys(pick: vscode.QuickPick<vscode.QuickPickItem>, searchAgain: () => void): EarlyKeysInBox {
  const writer = new FrontWriter();
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  let shown = false;
  const write = () => {
    clearTimeout(timer);
    const value = disposed || !shown ? undefined : writer.write();
    if (value !== undefined) pick.value = value; // VS Code reports it back as a change: searched as typed
  };
  const whenQuiet = () => {
    clearTimeout(timer);
    timer = setTimeout(write, WRITE_QUIET_MS);
  };
  let hidden = false;
  const hides = pick.onDidHide(() => (hidden = true)); // (before the watch's own: a hide ends it)
  const watch = watchEditor(
    pick,
    (text) => {
      if (disposed) return;
      writer.add(text);
      whenQuiet();
      searchAgain();
    },
    () => shown && !hidden,
  );
  const typing = pick.onDidChangeValue((value) => {
    // (showing the picker reports its empty value as a change, and a write comes back as one: not keys)
    if (value && !writer.writing(value)) watch?.finish(); // the focus is in the box
    const next = writer.changed(value);
    if (next === 'write') write();
    else if (next === 'wait') whenQuiet();
  });
  return {
    query: (value) => writer.query(value),
    shown: () => {
      shown = true;
      whenQuiet(); // keys taken back meanwhile wait for a quiet box like any others
    },
    dispose: () => {
      disposed = true;
      clearTimeout(timer);
      typing.dispose();
      hides.dispose();
    },
  };
}

/**
 * Watches the active editor from the command's first turn until the box has a key (the focus has
 * moved there), the picker closes, or GAP_LIMIT_MS (EarlyKeysWatch). `taken` gets each batch of keys
 * taken back, once the editor is back as it was. The selection is put back while the box is showing
 * (`inBox`): set while keys still go to the editor (before the box showed, or after Escape and the chord
 * again), it would move the cursor under them.
 */
function watchEditor(pick: vscode.QuickPick<vscode.QuickPickItem>, taken: (text: string) => void, inBox: () => boolean): EarlyKeysWatch | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selections.length !== 1) return undefined;
  const { document, selection } = editor;
  const wasDirty = document.isDirty;
  const before = document.getText();
  let pause: NodeJS.Timeout | undefined;
  let landings = 0;
  let selectionBack = false;
  const restoreSelection = () => {
    if (selectionBack || !inBox() || document.getText() !== before) return;
    selectionBack = true;
    editor.selection = selection;
  };
  /**
   * An edit puts the keys' range back: it does not apply where keys came meanwhile (the watch tries
   * again with them), and its change is how the watch knows it landed. Never a revert to put keys back:
   * VS Code's revert marks the file saved as it is *then*, and skips reading the disk if a key comes
   * before it does, so keys typed during a revert could become the file's saved state.
   */
  const putBack = async (from: number, to: number, text: string): Promise<boolean> => {
    const typed = new vscode.Range(document.positionAt(from), document.positionAt(to));
    const applied = await editor.edit((b) => b.replace(typed, text), { undoStopBefore: false, undoStopAfter: false });
    if (applied) await markSaved();
    return applied;
  };
  /**
   * The edits back leave a file that had no unsaved changes marked unsaved. With auto save on (VS Code
   * for the Web's default) the keys may have been saved meanwhile, and the text put back is saved in
   * turn. Otherwise, once the text is again what the disk holds, a revert clears the mark and changes
   * nothing (it reads the same text; a file whose bytes do not decode to it, a BOM or another encoding,
   * stays marked). The revert acts on the active editor, which is this one unless a preview is showing.
   */
  const markSaved = async () => {
    if (wasDirty || !document.isDirty || document.getText() !== before || vscode.window.activeTextEditor?.document !== document) return;
    if (vscode.workspace.getConfiguration('files', document.uri).get<string>('autoSave', 'off') !== 'off') return;
    try {
      if (new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri)) !== before) return;
      if (!document.isDirty || document.getText() !== before) return; // (a key came meanwhile: the next put back)
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } catch (error) {
      log().warn(`marking ${document.uri.fsPath} saved again after the keys were taken back: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const watch = new EarlyKeysWatch(document.offsetAt(selection.start), document.getText(selection), {
    putBack: (from, to, text) => putBack(from, to, text).catch((error: unknown) => {
      log().warn(`putting back the keys typed before Find Where Implemented showed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }),
    asBefore: () => document.getText() === before,
    taken: (text) => {
      log().debug(`keys typed before the picker showed, taken back: ${JSON.stringify(text)}`);
      landings++;
      taken(text);
      restoreSelection();
    },
    ended: () => {
      clearTimeout(limit);
      clearTimeout(pause);
      for (const s of subscriptions) s.dispose();
      if (landings > 0) {
        restoreSelection();
        void markSaved(); // (a key that came during the last one left the mark)
      }
    },
  });
  const subscriptions = [
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== document || e.contentChanges.length === 0) return;
      if (!watch.edited(e.contentChanges.map((c) => ({ offset: c.rangeOffset, length: c.rangeLength, text: c.text })))) return;
      clearTimeout(pause);
      const version = document.version;
      // A host that was busy runs an expired timer before reading the keys that came meanwhile: look
      // again after those are read (setImmediate runs after I/O), and put back only if none was a key.
      pause = setTimeout(() => setImmediate(() => document.version === version && watch.paused()), KEY_PAUSE_MS);
    }),
    pick.onDidHide(() => watch.finish()),
  ];
  const limit = setTimeout(() => watch.finish(), GAP_LIMIT_MS);
  return watch;
}
