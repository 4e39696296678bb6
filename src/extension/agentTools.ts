// The agent tools as VS Code language-model tools: Copilot's agent mode (and any extension through
// vscode.lm.invokeTool) can search, fetch and explore the graph, with `#cartograph…` references in
// chat. Calls go to each folder's Repository (its engine worker); open buffers' unsaved text is
// sent along, so fetched source is what the user sees, and those files are named as not re-indexed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallState } from '../core/tools/context';
import { TOOL_NAMES } from '../core/tools/schemas';
import { callTool, type ToolFolder } from '../core/tools/workspaceTools';
import type { WorkspaceIndex } from './workspaceIndex';

/** VS Code's tool name for one of ours (package.json's `languageModelTools` uses the same). */
export const vscodeToolName = (name: string) => `cartograph_${name}`;
/** How long a call waits for saves and watcher batches already queued before answering anyway. */
const CATCH_UP_MS = 3_000;

export function registerAgentTools(indexes: () => readonly WorkspaceIndex[]): vscode.Disposable {
  const disposables = TOOL_NAMES.map((name) =>
    vscode.lm.registerTool<Record<string, unknown>>(vscodeToolName(name), {
      prepareInvocation: (options) => ({ invocationMessage: `Cartograph: ${name.replace('_', ' ')} ${summary(options.input)}`.trim() }),
      invoke: async (options) => {
        const result = await callTool(indexes().map(folderOf), name, options.input);
        // A thrown error is what VS Code hands the model as a failed tool call, with this message.
        if (!result.ok) throw new Error(result.error);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text)]);
      },
    }),
  );
  return vscode.Disposable.from(...disposables);
}

function folderOf(index: WorkspaceIndex): ToolFolder {
  return {
    label: index.folder.name,
    root: index.root,
    run: async (name, args) => {
      const call = await callState(index);
      const repository = index.repository;
      if (!repository) throw new Error(`Cartograph is still opening ${index.folder.name}; try again in a moment`);
      return repository.runTool(name, args, call);
    },
  };
}

/** The folder's state just before a call: pending saves and watcher batches applied first, unsaved buffers. */
async function callState(index: WorkspaceIndex): Promise<CallState> {
  // Read-your-writes: saves and watcher batches already queued reach the graph first.
  await Promise.race([index.idle(), new Promise((r) => setTimeout(r, CATCH_UP_MS))]);
  const buffers: Record<string, string> = {};
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.scheme !== 'file' || !doc.isDirty || !index.contains(doc.uri.fsPath)) continue;
    buffers[path.relative(index.root, doc.uri.fsPath).split(path.sep).join('/')] = doc.getText();
  }
  const indexing = index.state.kind === 'indexing' ? `${index.state.phase} ${index.state.done}/${index.state.total}` : undefined;
  return { pending: Object.keys(buffers), buffers, indexing };
}

function summary(input: Record<string, unknown>): string {
  const what = input.query ?? input.name ?? input.id ?? input.path ?? (input.diff ? 'diff' : '');
  return typeof what === 'string' ? `"${what.length > 60 ? `${what.slice(0, 57)}…` : what}"` : '';
}
