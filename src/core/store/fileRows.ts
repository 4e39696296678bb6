// The files table's rows: what the engine records of each file, so that a warm start and the next
// index know what was parsed (and from which state of the file) or why a file was skipped.
import { PARSER_VERSION, type FileGraph } from '../parse/fileGraph';
import type { SkippedFile } from '../workspace/scan';
import type { StoredFile } from './graphStore';

export function storedRow(graph: FileGraph, meta?: { mtimeMs: number; size: number }): StoredFile {
  return {
    path: graph.path,
    hash: graph.hash,
    mtimeMs: meta?.mtimeMs ?? 0,
    size: meta?.size ?? 0,
    language: graph.language,
    parserVersion: PARSER_VERSION,
    graph,
    skipped: null,
  };
}

export function skippedRow(skip: SkippedFile): StoredFile {
  return { path: skip.path, hash: '', mtimeMs: 0, size: 0, language: '', parserVersion: PARSER_VERSION, graph: null, skipped: skip.reason };
}
