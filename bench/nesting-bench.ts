// `npx tsx bench/nesting-bench.ts [--json FILE] [--depths 2500,5000,10000,20000]`: milliseconds to index
// one file of deeply nested parentheses per language and depth (bench/faults/nesting.ts). Time that
// doubles with the depth is linear; time that quadruples is the quadratic walk this guards against.
import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { measureNesting } from './faults/nesting';

const { values } = parseArgs({ options: { json: { type: 'string' }, depths: { type: 'string' } } });
const depths = (values.depths ?? '2500,5000,10000,20000').split(',').map(Number);

void (async () => {
  const results = await measureNesting(depths);
  const languages = [...new Set(results.map((r) => r.language))];
  console.log(['language', ...depths.map((d) => `depth ${d}`)].join('\t'));
  for (const language of languages) {
    const row = depths.map((depth) => `${results.find((r) => r.language === language && r.depth === depth)!.ms} ms`);
    console.log([language, ...row].join('\t'));
  }
  if (values.json) fs.writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
})();
