// `npx tsx bench/extract-cost.ts OTHER_TREE [--runs N]`: what a change to the extractors costs. Parses
// and extracts every `.py` file of Django (bench/.corpora/django) with OTHER_TREE's extractor (another
// checkout, e.g. `git archive main | tar -x -C /tmp/main` with node_modules linked) and with this
// tree's, alternately in one process, single-threaded; prints the time per run and the size of the
// per-file graphs' JSON (what the store keeps).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string' } } });
const other = positionals[0];
if (!other) throw new Error('usage: npx tsx bench/extract-cost.ts OTHER_TREE [--runs N]');
const runs = Number(values.runs ?? 4);
const files: string[] = [];
const walk = (dir: string) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith('.py')) files.push(p);
  }
};
walk(path.join(__dirname, '.corpora', 'django'));
const texts = files.map((f) => fs.readFileSync(f, 'utf8'));

(async () => {
  const trees: Record<string, string> = { other: path.resolve(other), this: path.join(__dirname, '..') };
  const extractors: Record<string, (file: string, text: string) => Promise<unknown>> = {};
  for (const [name, tree] of Object.entries(trees)) {
    const { extractFile } = await import(path.join(tree, 'src/core/parse/extract.ts'));
    const { ParserPool } = await import(path.join(tree, 'src/core/parse/parser.ts'));
    const pool = new ParserPool(path.join(tree, 'grammars'));
    extractors[name] = (file, text) => extractFile(pool, file, 'python', text);
  }
  const ms: Record<string, number[]> = { other: [], this: [] };
  const jsonBytes: Record<string, number> = {};
  for (let run = 0; run < runs; run++) {
    for (const name of run % 2 ? ['this', 'other'] : ['other', 'this']) {
      const started = performance.now();
      let bytes = 0;
      for (let i = 0; i < files.length; i++) bytes += JSON.stringify(await extractors[name](files[i], texts[i])).length;
      ms[name].push(Math.round(performance.now() - started));
      jsonBytes[name] = bytes;
    }
  }
  console.log(JSON.stringify({ files: files.length, ms, jsonBytes }));
})();
