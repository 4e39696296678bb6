// Which files of a folder the graph takes, and their text: the ignore files and `exclude` patterns, the
// size limit, and symlinks out of the root and minified or vendored JavaScript (skipped unless asked
// for). The engine's full index scans with the same options (workspace/scan.ts); saves and watcher
// batches ask here one path at a time.
import * as path from 'node:path';
import { bundledByContent, bundledByPath, type BundledSkip } from './bundled';
import { DEFAULT_MAX_FILE_SIZE, RootBoundary, readSourceFile, type ReadResult, type Skip } from './readSource';
import { createIgnoreMatcher } from './scan';

export interface SourceFileOptions {
  maxFileSize?: number;
  /** Index minified and vendored JavaScript too (workspace/bundled.ts). */
  includeMinified?: boolean;
  /** Extra gitignore-style patterns. */
  exclude?: string[];
  /** Read through symlinks out of the root too (readSource.ts's RootBoundary). */
  followSymlinks?: boolean;
}

export class SourceFiles {
  private ignore: ((relPath: string, isDir: boolean) => boolean) | undefined;
  readonly boundary: RootBoundary;

  constructor(
    readonly root: string,
    readonly options: SourceFileOptions,
  ) {
    this.boundary = new RootBoundary(root, options.followSymlinks);
  }

  get maxFileSize(): number {
    return this.options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  }

  /** A path as the graph names files: relative to the root, with `/` separators. */
  relative(filePath: string): string {
    const rel = path.isAbsolute(filePath) ? path.relative(this.root, filePath) : filePath;
    return rel.split(path.sep).join('/');
  }

  /** A source file as the graph takes it: readable text, and not minified or vendored JavaScript unless asked for. */
  async read(rel: string, absPath = path.join(this.root, rel)): Promise<ReadResult> {
    const byPath = this.options.includeMinified ? undefined : bundledByPath(rel);
    if (byPath) return { ok: false, ...byPath };
    const result = await readSourceFile(absPath, this.maxFileSize, undefined, this.boundary);
    const byContent = result.ok && !this.options.includeMinified ? bundledByContent(rel, result.text) : undefined;
    return byContent ? { ok: false, ...byContent } : result;
  }

  /**
   * Why an editor buffer's text is not taken, if it is not: its file is a symlink out of the root (the
   * buffer holds that file's text), or it is minified or vendored JavaScript.
   */
  async refusedBuffer(rel: string, text: string): Promise<Skip | BundledSkip | undefined> {
    // A file the editor could save but that is gone or dangling now: the buffer is all there is.
    const real = await this.boundary.realPath(path.join(this.root, rel)).catch(() => undefined);
    if (typeof real === 'object') return real;
    return this.options.includeMinified ? undefined : (bundledByPath(rel) ?? bundledByContent(rel, text));
  }

  async isIgnored(rel: string): Promise<boolean> {
    this.ignore ??= await createIgnoreMatcher(this.root, this.options.exclude);
    return this.ignore(rel, false);
  }

  /** A full scan read the ignore files afresh: the next single-path question re-reads them too. */
  forgetIgnoreFiles(): void {
    this.ignore = undefined;
  }
}
