// Every agent tool's answer against its maxTokens, in real o200k tokens (gpt-tokenizer, as issue 34
// measured it): on Django, each tool over varied inputs at budgets from the smallest allowed to the
// default, the answer text as the agent reads it (freshness notes included: half the calls say three
// files are not yet re-indexed). Prints the most any answer used of its budget and how many went over.
//   npx tsx bench/budget-bench.ts [--corpus django] [--json FILE]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { encode } from 'gpt-tokenizer';
import { LocalRepository } from '../src/core/service/localRepository';

const { values } = parseArgs({ options: { corpus: { type: 'string', default: 'django' }, json: { type: 'string' } } });
const CORPORA = process.env.CORPORA_DIR ?? path.join(__dirname, '.corpora');
const BUDGETS = [200, 500, 1000, 2000, 4000];
const PENDING = { pending: ['db/models/query.py', 'db/models/base.py', 'http/request.py'] };

/** Inputs an agent would send, by tool (Django's names; the bench reads them off the graph where it can). */
const INPUTS: Record<string, Array<Record<string, unknown>>> = {
  search_code: [
    { query: 'QuerySet', limit: 50 },
    { query: 'callers of QuerySet.filter', limit: 100 },
    { query: 'parse the http accept header into media types', limit: 50 },
    { query: 'subclasses of Field', limit: 200 },
  ],
  fetch_node: [{ name: 'QuerySet' }, { name: 'Model.save' }, { name: 'HttpRequest' }, { id: 'db/models/query.py', maxLines: 2000 }],
  explore_graph: [
    { name: 'QuerySet', direction: 'both', limit: 200 },
    { name: 'Field', direction: 'in', depth: 2, limit: 200 },
    { name: 'Model.save', direction: 'in', depth: 3, limit: 200 },
  ],
  impact: [
    { names: ['QuerySet.filter'], depth: 2, limit: 200 },
    { names: ['Field.get_prep_value'], depth: 3, limit: 200 },
  ],
  repo_overview: [{}, { path: 'db/models' }, { byArea: true }],
  edit_context: [
    { path: 'db/models/query.py', line: 900 },
    { path: 'http/request.py', line: 100 },
  ],
};

interface Row {
  tool: string;
  calls: number;
  over: number;
  /** The largest share of its budget one answer used. */
  maxShare: number;
  /** Mean share of the budget used, where the whole answer would not have fit. */
  meanShareWhenCut: number;
}

async function main(): Promise<void> {
  const root = path.join(CORPORA, values.corpus!);
  if (!fs.existsSync(root)) execFileSync('bash', [path.join(__dirname, 'fetch-corpora.sh')], { stdio: 'inherit' });
  const repo = await LocalRepository.open(root, { storeDir: null });
  await repo.index();
  const rows: Row[] = [];
  try {
    for (const [tool, inputs] of Object.entries(INPUTS)) {
      const row: Row = { tool, calls: 0, over: 0, maxShare: 0, meanShareWhenCut: 0 };
      const cutShares: number[] = [];
      for (const input of inputs) {
        const whole = await repo.runTool(tool, { ...input, maxTokens: 16000 });
        const wholeTokens = whole.ok ? encode(whole.text).length : 0;
        for (const maxTokens of BUDGETS) {
          for (const call of [{ pending: [] }, PENDING]) {
            const answer = await repo.runTool(tool, { ...input, maxTokens }, call);
            if (!answer.ok) throw new Error(`${tool} ${JSON.stringify(input)}: ${answer.error}`);
            const tokens = encode(answer.text).length;
            row.calls++;
            if (tokens > maxTokens) row.over++;
            row.maxShare = Math.max(row.maxShare, tokens / maxTokens);
            if (wholeTokens > maxTokens) cutShares.push(tokens / maxTokens);
          }
        }
      }
      row.meanShareWhenCut = cutShares.length ? cutShares.reduce((a, b) => a + b, 0) / cutShares.length : 0;
      rows.push(row);
    }
  } finally {
    await repo.close();
  }
  console.log(`${values.corpus}, budgets ${BUDGETS.join('/')} tokens, each call with and without freshness notes:`);
  console.log('| tool | answers | over budget | most of its budget one answer used | mean share used when cut |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.tool} | ${r.calls} | ${r.over} | ${(100 * r.maxShare).toFixed(1)} % | ${(100 * r.meanShareWhenCut).toFixed(1)} % |`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), corpus: values.corpus, budgets: BUDGETS, rows }, null, 2));
}

void main();
