// Find Where Implemented with `files: <issue text>`: the files a bug report or task concerns, from
// every indexed folder, each with the definitions that counted for it (the ranking is the core's:
// src/core/search/fileRanking.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SearchResult } from '../core/search/types';
import type { CommandHost } from './commandHost';

/** A ranked file as a QuickPick item; its id is the file's module node, which the explorer can show. */
export interface FileItem extends vscode.QuickPickItem {
  id: string;
  score: number;
  file: vscode.Uri;
  line: number;
  root: string;
}

export async function findFiles(host: CommandHost, question: string, limit: number): Promise<{ results: SearchResult[]; items: FileItem[]; more: boolean }> {
  const results: SearchResult[] = [];
  const items: FileItem[] = [];
  for (const index of host.indexes()) {
    if (!index.repository) continue;
    const ranking = await index.repository.rankFiles(question, limit);
    results.push({ query: question, route: 'natural-language', reason: 'files: ranked by their definitions and their whole text', hits: [], timingsMs: ranking.timingsMs });
    for (const hit of ranking.hits) {
      const names = hit.definitions.map((d) => d.id.slice(d.id.indexOf('#') + 1));
      items.push({
        id: hit.path,
        score: hit.score,
        file: vscode.Uri.file(path.join(index.root, hit.path)),
        line: 0,
        root: index.root,
        label: `$(file) ${hit.path}`,
        description: `file · text ${hit.text.toFixed(2)}`,
        detail: names.length > 0 ? names.join(', ') : 'matched by its text only',
        alwaysShow: true,
      });
    }
  }
  items.sort((a, b) => b.score - a.score);
  return { results, items: items.slice(0, limit), more: items.length > limit };
}
