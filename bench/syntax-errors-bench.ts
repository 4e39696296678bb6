// How many TypeScript files tree-sitter reads with syntax errors, as written and after the grammar
// workarounds (src/core/parse/tsWorkarounds.ts), per npm package; TypeScript's own parser is the
// reference (it reads them all). Default packages: four AWS SDK v3 clients (their `*Command.d.ts`
// files are what issue 34 found failing) and effect (the workarounds' first corpus), pinned.
//   npx tsx bench/syntax-errors-bench.ts [npm-spec ...] [--json FILE]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import ts from 'typescript';
import type { Language } from '../src/core/model/schema';
import { languageOf } from '../src/core/parse/languages';
import { ParserPool } from '../src/core/parse/parser';
import { parseableText } from '../src/core/parse/tsWorkarounds';
import { filesUnder, packedPackage } from '../test/unit/npmPackCache';

const DEFAULT_PACKAGES = ['@aws-sdk/client-sqs@3.1175.0', '@aws-sdk/client-s3@3.1175.0', '@aws-sdk/client-dynamodb@3.1169.0', '@aws-sdk/client-lambda@3.1164.0', 'effect@3.22.4'];

interface Row {
  package: string;
  files: number;
  lines: number;
  /** Files tree-sitter reads with an error, as written. */
  raw: number;
  /** The same after the workarounds. */
  prepared: number;
  /** Files TypeScript's own parser reports a syntax error in. */
  typescript: number;
  /** Up to five files still failing after the workarounds. */
  stillFailing: string[];
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { json: { type: 'string' } }, allowPositionals: true });
  const pool = new ParserPool();
  const rows: Row[] = [];
  for (const spec of positionals.length > 0 ? positionals : DEFAULT_PACKAGES) {
    const pkg = packedPackage(spec);
    if ('skip' in pkg) {
      console.log(`${spec}: skipped (${pkg.skip})`);
      continue;
    }
    const row: Row = { package: spec, files: 0, lines: 0, raw: 0, prepared: 0, typescript: 0, stillFailing: [] };
    for (const file of filesUnder(pkg.dir, /\.(ts|tsx|mts|cts)$/)) {
      const language = languageOf(file) as Language | undefined;
      if (language !== 'typescript' && language !== 'tsx') continue;
      const rel = path.relative(pkg.dir, file);
      const text = fs.readFileSync(file, 'utf8');
      const parser = await pool.parser(language);
      const failsAsWritten = parser.parse(text)!.rootNode.hasError;
      const prepared = parseableText(text, language, rel);
      const failsPrepared = prepared === text ? failsAsWritten : parser.parse(prepared)!.rootNode.hasError;
      const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, false, language === 'tsx' ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
      const tsErrors = (source as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length;
      row.files++;
      row.lines += text.split('\n').length;
      if (failsAsWritten) row.raw++;
      if (failsPrepared) {
        row.prepared++;
        if (row.stillFailing.length < 5) row.stillFailing.push(rel);
      }
      if (tsErrors > 0) row.typescript++;
    }
    rows.push(row);
  }
  console.log('| package | files | lines | with errors, as written | after the workarounds | TypeScript\'s parser |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.package} | ${r.files} | ${r.lines} | ${r.raw} | ${r.prepared} | ${r.typescript} |`);
  for (const r of rows) if (r.stillFailing.length > 0) console.log(`${r.package}, still failing: ${r.stillFailing.join(', ')}`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
}

void main();
