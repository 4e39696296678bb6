// The BM25 baselines over one document per Function/Method, the document being its source text from
// the stripped files (by node range): MiniSearch (a maintained BM25+ full-text library, each distinct
// query term once), and standard Okapi BM25 (bench/search/okapi.ts: Lucene's k1 1.2, b 0.75, every
// query-term occurrence counted) over the same tokens (issue 34).
import * as fs from 'node:fs';
import * as path from 'node:path';
import MiniSearch from 'minisearch';
import type { Engine } from '../../src/core/engine';
import { OkapiBm25 } from './okapi';

const STOPWORDS = new Set(
  ('a an and are as at be been being but by can could did do does for from had has have if in into is it its ' +
    'may might must no not of on or should so such than that the their them then there these they this those ' +
    'to was were when which while who will with would you your we our us i he she his her also any all each ' +
    'other some only more most very just about over under after before between through during out up down').split(' '),
);

/** Identifier-aware words: split on non-alphanumerics, snake_case and camelCase (`HTTPServer` -> http, server). */
export function codeTokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/[^A-Za-z0-9]+/)) {
    if (!raw) continue;
    const parts = raw.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(' ');
    for (const p of parts) {
      const t = p.toLowerCase();
      if (t.length > 1 && !STOPWORDS.has(t) && !/^\d+$/.test(t)) out.push(t);
    }
    if (parts.length > 1) out.push(raw.toLowerCase()); // the whole identifier too
  }
  return out;
}

export interface Bm25Index {
  search(query: string, limit: number): string[];
  documents: number;
  buildMs: number;
}

/** The source text of every Function/Method, by node range. */
function functionDocs(engine: Engine): { id: string; text: string }[] {
  const texts = new Map<string, string[]>();
  const lines = (rel: string) => {
    let l = texts.get(rel);
    if (!l) texts.set(rel, (l = fs.readFileSync(path.join(engine.root, rel), 'utf8').split('\n')));
    return l;
  };
  const docs: { id: string; text: string }[] = [];
  engine.graph.graph.forEachNode((id, a) => {
    if ((a.kind !== 'Function' && a.kind !== 'Method') || !a.range) return;
    docs.push({ id, text: lines(a.path).slice(a.range.startLine, a.range.endLine + 1).join('\n') });
  });
  return docs;
}

export function buildBm25(engine: Engine): Bm25Index {
  const t0 = performance.now();
  const docs = functionDocs(engine);
  const mini = new MiniSearch<{ id: string; text: string }>({
    fields: ['text'],
    tokenize: codeTokens,
    processTerm: (t) => t,
    searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false },
  });
  mini.addAll(docs);
  return {
    search: (query, limit) => mini.search(query).slice(0, limit).map((r) => String(r.id)),
    documents: docs.length,
    buildMs: performance.now() - t0,
  };
}

export function buildOkapi(engine: Engine): Bm25Index {
  const t0 = performance.now();
  const docs = functionDocs(engine);
  const okapi = new OkapiBm25(docs.map((d): [string, string[]] => [d.id, codeTokens(d.text)]));
  return {
    search: (query, limit) => okapi.search(codeTokens(query), limit),
    documents: docs.length,
    buildMs: performance.now() - t0,
  };
}
