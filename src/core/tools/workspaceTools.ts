// The agent tools over several folders (the MCP server's `--root`s, VS Code's workspace folders):
// a call that names a path or an id goes to the folder that has it; a search, a map or a name goes
// to every folder and the answers come back together, each under its folder's name.
import * as path from 'node:path';
import type { ToolResult } from './context';

export interface ToolFolder {
  /** The folder's name in answers (its base name). */
  label: string;
  root: string;
  /** The folder's answer; it reads its own call state (pending files, buffers) just before it answers. */
  run(name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export async function callTool(folders: readonly ToolFolder[], name: string, args: unknown): Promise<ToolResult> {
  if (folders.length === 0) return { ok: false, error: 'no folder is indexed' };
  const input = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const one = (f: ToolFolder, a: Record<string, unknown>) => f.run(name, a);
  if (folders.length === 1) return one(folders[0], input);

  if (typeof input.path === 'string') {
    const routed = routePath(folders, input.path);
    if (!routed) return { ok: false, error: `"${input.path}" is in none of the indexed folders (${folders.map((f) => f.root).join(', ')}); prefix a relative path with the folder name` };
    return one(routed.folder, { ...input, path: routed.rel });
  }
  if (typeof input.id === 'string' || Array.isArray(input.ids)) {
    // Ids are folder-relative: the first folder that knows it answers.
    let first: ToolResult | undefined;
    for (const f of folders) {
      const result = await one(f, input);
      if (result.ok) return result;
      first ??= result;
    }
    return first!;
  }
  const results = await Promise.all(folders.map((f) => one(f, input)));
  const ok = results.flatMap((r, i) => (r.ok ? [{ r, f: folders[i] }] : []));
  if (ok.length === 0) return results[0];
  return {
    ok: true,
    text: ok.map(({ r, f }) => `## ${f.label} (${f.root})\n${r.text}`).join('\n\n'),
    structured: { ...ok[0].r.structured, folders: ok.map(({ r, f }) => ({ folder: f.label, root: f.root, ...r.structured })) },
  };
}

/** An absolute path inside a folder, or `label/rest` naming the folder; undefined when neither. */
function routePath(folders: readonly ToolFolder[], p: string): { folder: ToolFolder; rel: string } | undefined {
  if (path.isAbsolute(p)) {
    const folder = folders.find((f) => !path.relative(f.root, p).startsWith('..'));
    return folder && { folder, rel: p };
  }
  const [head, ...rest] = p.split('/');
  const folder = folders.find((f) => f.label === head);
  return folder ? { folder, rel: rest.join('/') } : undefined;
}
