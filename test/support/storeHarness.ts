// Driving the built CLI against a store as users and agents do, for the fault tests and bench:faults:
// runs that can be killed with -9 at a chosen moment, what a reader sees afterwards, edits that change
// the graph and can be undone, and the rows a store holds.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GraphStore } from '../../src/core/store/graphStore';

export const CLI = path.join(__dirname, '..', '..', 'dist', 'cli.js');
/** Flask 2.2.2 as Debian ships it. */
export const FLASK = path.join(__dirname, '..', 'fixtures', 'real', 'flask');

export function copyFlask(root: string): string {
  fs.cpSync(FLASK, root, { recursive: true, filter: (src) => path.basename(src) !== '.cartograph' });
  return root;
}

export async function index(root: string): Promise<void> {
  const run = await cli(['index', root], root);
  if (run.code !== 0) throw new Error(`cartograph index failed (${run.code}): ${run.stderr}`);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the CLI and kills it with -9 after `ms` (or lets it finish first): its process group, the engine's child too. */
export function killedAfter(args: string[], cwd: string, ms: number): Promise<{ finished: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: 'ignore', detached: true });
    let finished = true;
    const timer = setTimeout(() => {
      finished = false;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, ms);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ finished });
    });
  });
}

/** What a reader sees: the counts `stats --json` reports, or the kind of refusal. */
export type Seen = { counts: string } | { refused: 'incomplete' | 'no-index' | 'damaged'; stderr: string };

export async function seen(root: string): Promise<Seen> {
  const run = await cli(['stats', '--json'], root);
  if (run.code === 0) {
    const s = JSON.parse(run.stdout) as { files: number; nodes: Record<string, number>; edges: Record<string, number> };
    return { counts: JSON.stringify({ files: s.files, nodes: s.nodes, edges: s.edges }) };
  }
  if (/panicked|RUST_BACKTRACE|\.rs:\d+/.test(run.stderr)) throw new Error(`Rust panic text reached the user: ${run.stderr}`);
  if (run.code === 3 && /no finished index|no committed generation/.test(run.stderr)) return { refused: 'incomplete', stderr: run.stderr };
  if ((run.code === 1 && /no index found/.test(run.stderr)) || (run.code === 3 && /there is no graph store/.test(run.stderr))) return { refused: 'no-index', stderr: run.stderr };
  return { refused: 'damaged', stderr: `exit ${run.code}: ${run.stderr}` };
}

export async function counts(root: string): Promise<string> {
  const s = await seen(root);
  if (!('counts' in s)) throw new Error(`stats refused: ${s.stderr}`);
  return s.counts;
}

/** Edits that change the graph: functions added to a few modules, one module removed, one added. */
export function edit(root: string): () => void {
  const changed = ['helpers.py', 'json/__init__.py', 'cli.py', 'sessions.py', 'views.py'];
  const originals = new Map(changed.map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
  const removed = fs.readFileSync(path.join(root, 'signals.py'), 'utf8');
  for (const f of changed) fs.appendFileSync(path.join(root, f), `\n\ndef fault_probe_${f.replace(/\W/g, '_')}(x):\n    return helpers_probe(x)\n`);
  fs.rmSync(path.join(root, 'signals.py'));
  fs.writeFileSync(path.join(root, 'added_module.py'), 'from .helpers import get_root_path\n\n\ndef added(x):\n    return get_root_path(x)\n');
  return () => {
    for (const [f, text] of originals) fs.writeFileSync(path.join(root, f), text);
    fs.writeFileSync(path.join(root, 'signals.py'), removed);
    fs.rmSync(path.join(root, 'added_module.py'));
  };
}

/** Rows per table and whether any key is stored twice. */
export async function storedRows(storeDir: string): Promise<{ nodes: number; edges: number; files: number; repeated: number }> {
  const { store } = await GraphStore.open(storeDir, { mode: 'read' });
  try {
    const all = await store.loadAll();
    const keys = [...all.nodes.map((n) => n.id), ...all.edges.map((e) => `edge ${e.id}`), ...all.files.map((f) => `file ${f.path}`)];
    return { nodes: all.nodes.length, edges: all.edges.length, files: all.files.length, repeated: keys.length - new Set(keys).size };
  } finally {
    await store.close();
  }
}
