// `npx tsx bench/cli-phases.ts [--json FILE] [--runs N] [--corpus NAME]`
// Where a cold `cartograph query` spends its time, phase by phase, the way it ran before the query
// snapshot (LanceDB store opened, per-file graphs loaded and re-stitched, both indexes built) and from
// the snapshot (key checked, graph read in place and `show` answered from it, graphology's graph built
// for the searcher, entity tables and lexical index read). Each run is a fresh
// process (cold JIT and heap, like the CLI); wall and CPU milliseconds, medians of N runs. The CLI's
// module loading is not here: bench/cli-bench.ts measures whole processes.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../src/core/engine';
import { describeNode, findNodes } from '../src/core/graph/describe';
import { RepositoryGraph } from '../src/core/graph/repositoryGraph';
import { PARSER_VERSION } from '../src/core/parse/fileGraph';
import { createSearcher } from '../src/core/search';
import { EntityIndex } from '../src/core/search/entityIndex';
import { LexicalIndex } from '../src/core/search/lexical';
import { descriptionsStamp, openQuerySnapshot, saveEngineSnapshot } from '../src/core/search/querySnapshot';
import { GraphStore } from '../src/core/store/graphStore';
import { projectConfigDirs, readProjectConfig } from '../src/core/workspace/projectConfig';
import { CORPORA } from './search/corpus';
import { percentile } from './search/metrics';

const { values } = parseArgs({
  options: {
    json: { type: 'string' },
    runs: { type: 'string', default: '5' },
    corpus: { type: 'string', default: 'django' },
    child: { type: 'string' }, // internal: "old|new STORE ROOT", one measured run
  },
});

type Phases = Record<string, { wallMs: number; cpuMs: number }>;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function measure(mode: string, storeDir: string, root: string): Promise<Phases> {
  const phases: Phases = {};
  const phase = async <T>(name: string, work: () => Promise<T> | T): Promise<T> => {
    const [wall, c] = [performance.now(), cpu()];
    const result = await work();
    phases[name] = { wallMs: performance.now() - wall, cpuMs: cpu() - c };
    return result;
  };
  if (mode === 'old') {
    const { store } = await phase('open the LanceDB store', () => GraphStore.open(storeDir));
    const files = await phase('read the per-file graphs', () => store.loadFiles());
    const graphs = files.filter((f) => f.graph && f.graph.parserVersion === PARSER_VERSION).map((f) => f.graph!);
    const repo = new RepositoryGraph(path.basename(root));
    await phase('re-stitch the graph', () => repo.applySliced({ upsert: graphs, config: readProjectConfig(root, projectConfigDirs(graphs.map((g) => g.path))) }));
    await phase('entity index (build)', () => EntityIndex.build(repo.graph, Infinity));
    await phase('lexical index (build)', () => LexicalIndex.build(repo.graph, undefined, (p) => repo.fileGraph(p), Infinity));
    await store.close();
  } else {
    const opened = await phase('check the key, read the graph', () => openQuerySnapshot(storeDir, root));
    if (!opened.ok) throw new Error(opened.reason);
    await phase('show QuerySet.filter (in place)', () => findNodes(opened.snapshot.graph, 'QuerySet.filter').map((id) => describeNode(opened.snapshot.graph, id)));
    await phase("graphology's graph (queries)", () => opened.snapshot.repo());
    await phase('entity index (load, one lookup)', () => opened.snapshot.entities().lookup('QuerySet.filter'));
    await phase('lexical index (load)', () => opened.snapshot.lexical());
  }
  return phases;
}

async function main(): Promise<void> {
  if (values.child) {
    const [mode, storeDir, root] = values.child.split('\n');
    process.stdout.write(JSON.stringify(await measure(mode, storeDir, root)));
    return;
  }
  const root = path.join(CORPORA, values.corpus!);
  if (!fs.existsSync(root)) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-cli-phases-'));
  try {
    const engine = await Engine.open(root, { storeDir });
    await engine.index();
    await saveEngineSnapshot(engine, createSearcher(engine), descriptionsStamp(storeDir));
    await engine.close();
    const results: Record<string, Record<string, { wallMs: number; cpuMs: number }>> = {};
    for (const mode of ['old', 'new']) {
      const runs: Phases[] = [];
      for (let i = 0; i < Number(values.runs); i++) {
        const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, '--child', `${mode}\n${storeDir}\n${root}`], { encoding: 'utf8' });
        runs.push(JSON.parse(out) as Phases);
      }
      results[mode] = Object.fromEntries(
        Object.keys(runs[0]).map((name) => [name, { wallMs: Math.round(percentile(runs.map((r) => r[name].wallMs), 50)), cpuMs: Math.round(percentile(runs.map((r) => r[name].cpuMs), 50)) }]),
      );
    }
    console.log(`cold query phases on ${values.corpus}, median of ${values.runs} fresh processes each, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const [mode, phases] of Object.entries(results)) {
      console.log(mode === 'old' ? 'from the store (before the snapshot)' : 'from the query snapshot');
      for (const [name, p] of Object.entries(phases)) console.log(`  ${name.padEnd(34)} ${String(p.wallMs).padStart(6)} ms wall ${String(p.cpuMs).padStart(6)} ms CPU`);
    }
    if (values.json) fs.writeFileSync(values.json, `${JSON.stringify({ corpus: values.corpus, runs: Number(values.runs), loadavg: os.loadavg(), node: process.version, results }, null, 2)}\n`);
  } finally {
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

void main();
