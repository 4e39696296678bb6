// Generated descriptions keyed by the content hash of the code they describe: an unchanged function
// is never sent to the model twice, across edits and restarts. One JSON file, written atomically.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export class DescriptionCache {
  private readonly byHash = new Map<string, string>();
  private dirty = false;

  private constructor(private readonly file: string | null) {}

  /** Reads `file` if it exists; a missing or damaged file starts empty (descriptions are regenerable). */
  static async open(file: string | null): Promise<DescriptionCache> {
    const cache = new DescriptionCache(file);
    if (!file) return cache;
    try {
      const data = JSON.parse(await fs.readFile(file, 'utf8')) as { descriptions?: Record<string, unknown> };
      for (const [hash, text] of Object.entries(data.descriptions ?? {})) if (typeof text === 'string') cache.byHash.set(hash, text);
    } catch {
      /* none yet, or unreadable: start over */
    }
    return cache;
  }

  get size(): number {
    return this.byHash.size;
  }

  get(hash: string): string | undefined {
    return this.byHash.get(hash);
  }

  set(hash: string, text: string): void {
    this.byHash.set(hash, text);
    this.dirty = true;
  }

  async save(): Promise<void> {
    if (!this.file || !this.dirty) return;
    this.dirty = false;
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    await fs.writeFile(tmp, JSON.stringify({ descriptions: Object.fromEntries(this.byHash) }));
    await fs.rename(tmp, this.file);
  }
}
