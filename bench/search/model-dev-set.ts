// `node --import tsx bench/search/model-dev-set.ts OUT.json [--corpus NAME]...`
// The bench:search dev corpora as the model trainer sees them: per corpus, the node texts the
// embedding job embeds (stripped copy, `nodeText` of every searchable node) and the natural-language
// queries with the key of their answer. train/model/train.py `--bench FILE` scores flat embedding
// search on it after every epoch (cosine over all nodes, overloads collapsed, top 10), so a training
// choice is checked on code never trained on without a bench:search run. Never a training input.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../../src/core/engine';
import { ParserPool } from '../../src/core/parse/parser';
import { nodeText, SEARCHABLE_KINDS } from '../../src/core/search/nodeText';
import { CORPORA, TS_PACKAGE, ensureTsPackage, groundTruth, keyOf, stripCopy } from './corpus';

const { values, positionals } = parseArgs({ options: { corpus: { type: 'string', multiple: true } }, allowPositionals: true });
const out = positionals[0];
if (!out) throw new Error('usage: model-dev-set.ts OUT.json [--corpus NAME]...');
const corpora = values.corpus ?? ['flask', 'requests', 'click', 'werkzeug', TS_PACKAGE.name];

async function main(): Promise<void> {
  const pool = new ParserPool();
  const result: Record<string, { nodes: { key: string; text: string }[]; queries: { query: string; key: string }[] }> = {};
  for (const name of corpora) {
    if (name === TS_PACKAGE.name) ensureTsPackage();
    const dir = path.join(CORPORA, name, name === TS_PACKAGE.name ? 'src' : '');
    const original = await Engine.open(dir, { storeDir: null });
    await original.index();
    const gt = groundTruth(original);
    await original.close();
    const strip = await stripCopy(dir, pool);
    const engine = await Engine.open(strip.dir, { storeDir: null });
    await engine.index();
    const graph = engine.graph.graph;
    const nodes: { key: string; text: string }[] = [];
    graph.forEachNode((id, node) => {
      if (SEARCHABLE_KINDS.has(node.kind)) nodes.push({ key: keyOf(id), text: nodeText(graph, id) });
    });
    const queries = gt.filter((g) => graph.hasNode(g.id)).map((g) => ({ query: g.query, key: g.key }));
    result[name] = { nodes, queries };
    console.log(`${name}: ${nodes.length} nodes, ${queries.length} queries`);
    await engine.close();
    fs.rmSync(path.dirname(strip.dir), { recursive: true, force: true });
  }
  fs.writeFileSync(out, JSON.stringify(result));
}

void main();
