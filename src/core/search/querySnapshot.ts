// The query snapshot: what a one-shot query needs (the graph's nodes and edges, the entity and lexical
// indexes) in one file in the store folder, so that `cartograph query` and `show` answer from a fresh
// process without LanceDB, a re-stitch of every file and two index builds (2.3-4.1 s on Django).
//
// It is a cache and must never answer for another state of the repository: its header names the
// store version it was made from (storeVersion.ts: a generation token every write replaces, and
// LanceDB's manifests), the project config files the graph was resolved with, the descriptions file and
// this build's formats. Any difference, a damaged section (CRC-32 per section) or a missing file, and
// the caller loads the graph from the store as before (and writes a new snapshot).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { CompactGraph, encodeGraph } from '../graph/graphCodec';
import { packUnresolved, unpackUnresolved, unresolvedByName, type UnresolvedLookup } from '../graph/unresolvedRefs';
import type { RepositoryGraph, ResolutionState } from '../graph/repositoryGraph';
import { SCHEMA_VERSION } from '../model/schema';
import { PARSER_VERSION } from '../parse/fileGraph';
import { DESCRIPTIONS_FILE, QUERY_SNAPSHOT_FILE, readStoreVersion, sameVersion, type StoreVersion } from '../store/storeVersion';
import { projectConfigDirs, readProjectConfig, type ConfigDirs } from '../workspace/projectConfig';
import { EntityIndex } from './entityIndex';
import { graphCounts } from '../engineStats';
import type { GraphStore } from '../store/graphStore';
import { saveIndexRecord, type FileState } from '../store/indexRecord';
import type { SearchGraph, Searcher, SearcherOptions } from './index';
import { LexicalIndex } from './lexical';

/** Bump when what a section holds changes; the schema, parser and byte order are part of it too. */
const FORMAT = `cartograph-query-snapshot 10; schema ${SCHEMA_VERSION}; parser ${PARSER_VERSION}; ${os.endianness()}`;

// `resolutions`: each file's resolution state (RepositoryGraph.resolutionStates), with which a process that
// opens the store restores the graph instead of resolving every file again (Engine's warm start).
// `unresolved`: the references the graph did not resolve, by name (graph/unresolvedRefs.ts): the agent
// tools list them as possible callers and users, and a snapshot keeps no per-file graphs to find them in.
// `vocabulary`: the lexical index's part words (compoundWords.ts), so that a one-shot query splits as the
// index did without learning every name again.
const SECTIONS = ['graphStrings', 'graphInts', 'resolutions', 'unresolved', 'entities', 'lexical', 'vocabulary'] as const;
type Section = (typeof SECTIONS)[number];

/** What the snapshot was made from; all of it must still hold for the snapshot to be used. */
interface SnapshotKey {
  store: StoreVersion;
  root: string;
  /** The folders searched for tsconfig/jsconfig files and build manifests, and what was found there (JSON). */
  configDirs: ConfigDirs;
  config: string;
  descriptions: string;
}

interface Header {
  format: string;
  key: SnapshotKey;
  /** Byte offset (after the header line), length and checksum (CRC-32) of each section. */
  sections: Record<Section, [number, number, string]>;
}

/**
 * A query snapshot read back: the graph read in place (what `show`, search and the agent tools read), each
 * index loaded when first asked for.
 */
export interface QuerySnapshot {
  /** The store folder it was read from: what else is kept there (the functional view) is read beside it. */
  storeDir: string;
  graph: CompactGraph;
  /** The version of `repo()`'s graph the indexes were made for (it never changes). */
  version: 0;
  repo(): SearchGraph;
  entities(): EntityIndex;
  lexical(): LexicalIndex;
  unresolved(): UnresolvedLookup;
}

export type SnapshotOpen = { ok: true; snapshot: QuerySnapshot } | { ok: false; reason: string };

/** The state of the descriptions file (semantic lifting), which the lexical index includes. */
export function descriptionsStamp(storeDir: string): string {
  try {
    const stat = fs.statSync(path.join(storeDir, DESCRIPTIONS_FILE));
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'none';
  }
}

/**
 * Writes the snapshot of `repo` and its `indexes`, made from the store at `version` (from
 * GraphStore.version(), taken once the graph was settled and the store written). `descriptions`
 * is {@link descriptionsStamp} from before the descriptions were read.
 */
export async function saveQuerySnapshot(
  storeDir: string,
  root: string,
  repo: Pick<RepositoryGraph, 'graph' | 'filePaths' | 'fileGraph' | 'configJson' | 'resolutionStates' | 'version' | 'settledVersion'>,
  indexes: { entities: EntityIndex; lexical: LexicalIndex },
  version: StoreVersion,
  descriptions: string,
): Promise<void> {
  const configDirs = projectConfigDirs(repo.filePaths());
  const config = JSON.stringify(readProjectConfig(root, configDirs));
  // The graph was resolved with other configs than the ones on disk now (edited meanwhile).
  if (config !== repo.configJson) throw new Error('tsconfig, package.json, go.mod or Cargo.toml files changed since the graph was built');
  // The graph and its files' resolution states must be of one moment: not while an apply is part-way.
  if (repo.version !== repo.settledVersion) throw new Error('the graph is being changed');
  const graph = encodeGraph(repo.graph);
  if (!graph) throw new Error('the graph has edges whose ids its encoding cannot rebuild');
  const resolutions = repo.resolutionStates();
  const bodies: Record<Section, Buffer> = {
    graphStrings: graph.strings,
    graphInts: Buffer.from(graph.ints.buffer, graph.ints.byteOffset, graph.ints.byteLength),
    resolutions: Buffer.from(JSON.stringify(resolutions)),
    entities: indexes.entities.pack(),
    lexical: Buffer.from(indexes.lexical.toJSON()),
    vocabulary: Buffer.from(JSON.stringify(indexes.lexical.vocabulary())),
    unresolved: packUnresolved(unresolvedByName(repo)),
  };
  const sections = {} as Header['sections'];
  let offset = 0;
  for (const name of SECTIONS) {
    sections[name] = [offset, bodies[name].length, checksum(bodies[name])];
    offset += bodies[name].length;
  }
  const header: Header = { format: FORMAT, key: { store: version, root, configDirs, config, descriptions }, sections };
  const file = path.join(storeDir, QUERY_SNAPSHOT_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await fs.promises.writeFile(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), ...SECTIONS.map((s) => bodies[s])]));
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Saves the snapshot of an engine's graph with its searcher's indexes, and the record of its files
 * (indexRecord.ts), if the store still holds what this engine wrote or read (another process writing
 * meanwhile: nothing is saved, and says so). A snapshot that is already current and intact is left
 * alone ('unchanged'): rewriting it cost a re-index with nothing changed as much as the index itself on
 * large trees (its lexical index build).
 */
export async function saveEngineSnapshot(
  engine: { root: string; graph: RepositoryGraph; currentStore: GraphStore | null; flush(): Promise<void>; fileStates(): FileState[] },
  searcher: Pick<Searcher, 'indexes'>,
  descriptions: string,
  log?: (message: string) => void,
): Promise<'saved' | 'unchanged'> {
  await engine.flush();
  const store = engine.currentStore;
  if (!store) throw new Error('the graph store is not available');
  const version = await store.version();
  if (!version) throw new Error('the store was written by another process meanwhile');
  const current = await snapshotCurrent(store.dir, engine.root, version);
  if (!current) await saveQuerySnapshot(store.dir, engine.root, engine.graph, await searcher.indexes(), version, descriptions);
  await saveIndexRecord(store.dir, engine.root, version, engine.fileStates(), () => graphCounts(engine.graph), log);
  return current ? 'unchanged' : 'saved';
}

/** Whether the snapshot on disk was made from `version` of this store and still holds, every section intact. */
export async function snapshotCurrent(storeDir: string, root: string, version: StoreVersion): Promise<boolean> {
  let fd: number;
  try {
    fd = fs.openSync(path.join(storeDir, QUERY_SNAPSHOT_FILE), 'r');
  } catch {
    return false;
  }
  try {
    const header = readHeader(fd);
    if (typeof header === 'string' || header.format !== FORMAT || !sameVersion(header.key.store, version)) return false;
    if (await staleness(header.key, storeDir, root)) return false;
    return SECTIONS.every((name) => sectionIntact(fd, header, name));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The graph saved in the snapshot with each file's resolution state, if the snapshot was made from the
 * store and files as they are now: a warm start restores it rather than resolve every file.
 */
export async function openSavedGraph(storeDir: string, root: string): Promise<{ ok: true; graph: CompactGraph; states: ResolutionState[]; config: string } | { ok: false; reason: string }> {
  const opened = await openCurrent(storeDir, root);
  if (!opened.ok) return opened;
  const { fd, header, read } = opened;
  try {
    return { ok: true, graph: readGraph(read), states: JSON.parse(read('resolutions').toString('utf8')) as ResolutionState[], config: header.key.config };
  } catch (err) {
    return { ok: false, reason: `query snapshot damaged (${err instanceof Error ? err.message : String(err)})` };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A searcher's first indexes for an engine that warm-started by restoring the snapshot's graph (Engine.
 * warmStartedBy): the snapshot's own, read when the searcher first needs them (the graph may have changed
 * by then: they catch up, see SearcherOptions.prebuilt) and only while the snapshot on disk is still the
 * one the graph came from. Call before the graph's first change. Undefined when the snapshot cannot serve.
 */
export async function restoredIndexes(
  engine: { root: string; graph: RepositoryGraph; currentStore: GraphStore | null; warmStartedBy?: 'restore' | 'resolve' },
  descriptions?: { get(hash: string): string | undefined },
): Promise<SearcherOptions['prebuilt']> {
  const store = engine.currentStore;
  if (engine.warmStartedBy !== 'restore' || !store) return undefined;
  const opened = await openCurrent(store.dir, engine.root);
  if (!opened.ok) return undefined;
  const made = opened.header.key.store;
  fs.closeSync(opened.fd);
  const { version, graph } = engine.graph;
  // The entity tables name nodes by their place in the saved graph, which the restored one has now and
  // the live one may no longer keep.
  const savedOrder = graph.nodes();
  /** A section of the snapshot the graph was restored from, or undefined once another has replaced it. */
  const section = <T>(read: (sections: (name: Section) => Buffer) => T): T | undefined => {
    const again = openFile(store.dir);
    if (!again.ok) return undefined;
    try {
      return sameVersion(again.header.key.store, made) ? read(again.read) : undefined;
    } catch {
      return undefined; // damaged: built as usual
    } finally {
      fs.closeSync(again.fd);
    }
  };
  const files = (path: string) => engine.graph.fileGraph(path);
  return {
    version,
    entities: () => section((read) => EntityIndex.load(graph, read('entities'), savedOrder)),
    lexical: () => section((read) => LexicalIndex.load(graph, read('lexical').toString('utf8'), descriptions, files)),
  };
}

type OpenedFile = { ok: true; fd: number; header: Header & { bodyStart: number }; read: (name: Section) => Buffer } | { ok: false; reason: string };

/** The snapshot file open, its header read and its key checked (the caller closes `fd`). */
async function openCurrent(storeDir: string, root: string): Promise<OpenedFile> {
  const opened = openFile(storeDir);
  if (!opened.ok) return opened;
  const stale = await staleness(opened.header.key, storeDir, root).catch((err: unknown) => `unreadable: ${err instanceof Error ? err.message : String(err)}`);
  if (!stale) return opened;
  fs.closeSync(opened.fd);
  return { ok: false, reason: `query snapshot out of date (${stale})` };
}

/** The snapshot file open and its header read, whatever the store holds now (the caller closes `fd`). */
function openFile(storeDir: string): OpenedFile {
  let fd: number;
  try {
    fd = fs.openSync(path.join(storeDir, QUERY_SNAPSHOT_FILE), 'r');
  } catch {
    return { ok: false, reason: 'no query snapshot yet' };
  }
  const refuse = (reason: string): OpenedFile => {
    fs.closeSync(fd);
    return { ok: false, reason };
  };
  const header = readHeader(fd);
  if (typeof header === 'string') return refuse(`query snapshot damaged (${header})`);
  if (header.format !== FORMAT) return refuse('query snapshot written by another version of Cartograph');
  const read = (name: Section): Buffer => {
    const buffer = readSection(fd, header, name);
    if (!buffer) throw new Error(`query snapshot damaged (section ${name})`);
    return buffer;
  };
  return { ok: true, fd, header, read };
}

/** The graph sections, read in place; throws when damaged. */
function readGraph(read: (name: Section) => Buffer): CompactGraph {
  const strings = read('graphStrings');
  const intsBytes = read('graphInts');
  return new CompactGraph({ strings, ints: new Int32Array(intsBytes.buffer, intsBytes.byteOffset, intsBytes.byteLength / 4) });
}

/** The snapshot, if it exists, is intact so far and was made from the store and files as they are now. */
export async function openQuerySnapshot(storeDir: string, root: string): Promise<SnapshotOpen> {
  const opened = await openCurrent(storeDir, root);
  if (!opened.ok) return opened;
  const { fd, read } = opened;
  let keep = false;
  try {
    const graph = readGraph(read);
    // The index sections stay on disk until a query asks for them: a name query never reads the lexical one.
    keep = true;
    const close = once(() => fs.closeSync(fd));
    const remaining = new Set<Section>(['entities', 'lexical', 'vocabulary', 'unresolved']);
    const take = (name: Section) => {
      try {
        return read(name);
      } finally {
        remaining.delete(name);
        if (remaining.size === 0) close();
      }
    };
    // Searched in place (graphology is never built for a one-shot query). No per-file graphs: `files:`
    // queries (which read them) open the store instead (cli/main.ts).
    const repo = once((): SearchGraph => ({ graph, version: 0, settledVersion: 0, touchedSince: () => new Set<string>(), fileGraph: () => undefined, filePaths: () => [] }));
    const entities = once(() => EntityIndex.load(graph, take('entities'), { length: graph.order, at: (i) => graph.idAt(i) }));
    const lexical = once(() => LexicalIndex.loadFixed(repo().graph, take('lexical').toString('utf8'), JSON.parse(take('vocabulary').toString('utf8')) as string[]));
    const unresolved = once(() => unpackUnresolved(graph, take('unresolved')));
    return { ok: true, snapshot: { storeDir, graph, version: 0, repo, entities, lexical, unresolved } };
  } catch (err) {
    return { ok: false, reason: `query snapshot damaged (${err instanceof Error ? err.message : String(err)})` };
  } finally {
    if (!keep) fs.closeSync(fd);
  }
}

/** Why the key no longer holds, or undefined when it does. */
async function staleness(key: SnapshotKey, storeDir: string, root: string): Promise<string | undefined> {
  if (key.root !== root) return `made for ${key.root}`;
  const version = await readStoreVersion(storeDir);
  if (!version || !sameVersion(version, key.store)) return 'the store has changed since';
  if (descriptionsStamp(storeDir) !== key.descriptions) return 'the descriptions have changed since';
  if (JSON.stringify(readProjectConfig(root, key.configDirs)) !== key.config) return 'a tsconfig/jsconfig, package.json, go.mod or Cargo.toml file or a compiled Python module has changed since';
  return undefined;
}

/** A section's bytes, or undefined when they are short or fail their checksum. */
function readSection(fd: number, header: Header & { bodyStart: number }, name: Section): Buffer | undefined {
  const [offset, length, digest] = header.sections[name];
  // Unpooled, so that the Int32Array view of the graph's numbers starts on a 4-byte boundary.
  const buffer = Buffer.allocUnsafeSlow(length);
  return fs.readSync(fd, buffer, 0, length, header.bodyStart + offset) === length && checksum(buffer) === digest ? buffer : undefined;
}

/**
 * Whether a section is all there and passes its checksum, read a few MB at a time: checking a 127 MB
 * snapshot at a million lines whole took as much memory as the answers it serves.
 */
function sectionIntact(fd: number, header: Header & { bodyStart: number }, name: Section): boolean {
  const [offset, length, digest] = header.sections[name];
  const chunk = Buffer.allocUnsafe(Math.min(length, 4 << 20));
  let crc = 0;
  for (let done = 0; done < length; ) {
    const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, length - done), header.bodyStart + offset + done);
    if (n === 0) return false;
    crc = crc32(chunk.subarray(0, n), crc);
    done += n;
  }
  return crc.toString(16) === digest;
}

/** The header line, or what is wrong with it. */
function readHeader(fd: number): (Header & { bodyStart: number }) | string {
  const chunk = Buffer.allocUnsafe(256 * 1024);
  const n = fs.readSync(fd, chunk, 0, chunk.length, 0);
  const end = chunk.subarray(0, n).indexOf(10);
  if (end < 0) return 'no header';
  let header: Header;
  try {
    header = JSON.parse(chunk.toString('utf8', 0, end)) as Header;
  } catch {
    return 'header is not JSON';
  }
  if (!header || typeof header !== 'object' || !header.key?.store || !header.sections || SECTIONS.some((s) => !Array.isArray(header.sections[s]))) return 'header incomplete';
  return { ...header, bodyStart: end + 1 };
}

/**
 * A section's CRC-32: it is there to catch a damaged file (truncated, overwritten), not tampering, and a
 * one-shot query at a million lines checks 70 MB of sections with it: 20 ms, where SHA-1 took 50-100.
 */
function checksum(data: Buffer): string {
  return crc32(data).toString(16);
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
