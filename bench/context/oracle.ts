// Independent oracles for `bench:context`: which definitions in other files of the same repository
// each line uses, found by Jedi (Python), the TypeScript language service (TS), javac (Java), go/types (Go)
// and rustc's save-analysis (Rust), not by
// Cartograph's resolver. Their answers are mapped onto graph node ids (the innermost node of that
// file, with that name, whose range holds the definition's line) so recall can be counted the same
// way for every method; a definition with no such node stays `unmapped` and counts as a miss.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';

/** A definition the oracle found: repository-relative path, zero-based line of its name, name, the oracle's kind. */
export interface OracleDefinition {
  path: string;
  line: number;
  name: string;
  kind: string;
}

/** Per file, per zero-based line: the cross-file definitions used on that line. */
export type OracleAnswers = Map<string, Map<number, OracleDefinition[]>>;

const CACHE = path.join(__dirname, '..', 'results', 'oracle-cache');

/**
 * The first candidate program `probe` accepts. When none does on a Debian machine run as root, the
 * Debian package is installed and the candidates are probed again; `needs` says what is missing otherwise.
 */
function oracleTool<T>(candidates: Array<string | undefined>, probe: (program: string) => T | undefined, debianPackage: string, needs: string): T {
  const find = () => {
    for (const program of candidates) {
      const found = program ? probe(program) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  let found = find();
  if (!found && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    console.error(`bench:context: installing Debian ${debianPackage} (apt-get install -y ${debianPackage}) ...`);
    spawnSync('apt-get', ['install', '-y', debianPackage], { stdio: 'inherit' });
    found = find();
  }
  if (!found) throw new Error(`bench:context needs ${needs}`);
  return found;
}

/** A Python interpreter with Jedi: $CARTOGRAPH_PYTHON, Debian's python3 (python3-jedi), then `python3` on PATH. */
export function jediPython(): { python: string; version: string } {
  return oracleTool(
    [process.env.CARTOGRAPH_PYTHON, '/usr/bin/python3', 'python3'],
    (python) => {
      const r = spawnSync(python, ['-c', 'import jedi; print(jedi.__version__)'], { encoding: 'utf8' });
      return r.status === 0 ? { python, version: r.stdout.trim() } : undefined;
    },
    'python3-jedi',
    'Jedi for its independent Python oracle: `sudo apt-get install python3-jedi` (Debian/Ubuntu) or `pip install jedi`, or point CARTOGRAPH_PYTHON at an interpreter that has it.',
  );
}

function cached(key: string, compute: () => OracleAnswers): OracleAnswers {
  const file = path.join(CACHE, `${key}.json`);
  if (fs.existsSync(file)) {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, OracleDefinition[]>>;
    return new Map(Object.entries(raw).map(([p, lines]) => [p, new Map(Object.entries(lines).map(([l, d]) => [Number(l), d]))]));
  }
  const answers = compute();
  fs.mkdirSync(CACHE, { recursive: true });
  const raw = Object.fromEntries([...answers].map(([p, lines]) => [p, Object.fromEntries(lines)]));
  fs.writeFileSync(file, JSON.stringify(raw));
  return answers;
}

export function contentKey(tag: string, root: string, files: string[]): string {
  const h = createHash('sha1').update(tag);
  for (const f of files) h.update(f).update(fs.readFileSync(path.join(root, f)));
  return h.digest('hex').slice(0, 16);
}

function addDefinition(answers: OracleAnswers, file: string, line: number, def: OracleDefinition): void {
  let lines = answers.get(file);
  if (!lines) answers.set(file, (lines = new Map()));
  const defs = lines.get(line) ?? [];
  if (!defs.some((d) => d.path === def.path && d.line === def.line && d.name === def.name)) defs.push(def);
  lines.set(line, defs);
}

/** Jedi's `goto(follow_imports=True)` for every name in `files` (run by bench/context/jedi_oracle.py). */
export function jediOracle(root: string, files: string[]): OracleAnswers {
  const { python, version } = jediPython();
  return cached(`jedi-${contentKey(`jedi ${version}; sys path: the corpus and the standard library`, root, files)}`, () => {
    const out = execFileSync(python, [path.join(__dirname, 'jedi_oracle.py')], {
      input: JSON.stringify({ root, files }),
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      // Not the corpus folder: a package's own `json/` or `types.py` would shadow the standard library.
      cwd: cacheDir(),
    });
    return answersFromLines(out);
  });
}

/** The oracles' shared output: one JSON line per file, `{path, refs: [[line, col, name, [[defPath, defLine, name, kind]]]]}`. */
function answersFromLines(out: string): OracleAnswers {
  const answers: OracleAnswers = new Map();
  for (const line of out.split('\n').filter(Boolean)) {
    const { path: file, refs } = JSON.parse(line) as { path: string; refs: Array<[number, number, string, Array<[string, number, string, string]>]> };
    for (const [l, , , defs] of refs) for (const [p, dl, name, kind] of defs) addDefinition(answers, file, l, { path: p, line: dl, name, kind });
  }
  return answers;
}

/** The Go toolchain: $CARTOGRAPH_GO, else `go` on PATH, with its `go version` line. */
export function goToolchain(): { go: string; version: string } {
  return oracleTool(
    [process.env.CARTOGRAPH_GO, 'go'],
    (go) => {
      const r = spawnSync(go, ['version'], { encoding: 'utf8' });
      return r.status === 0 ? { go, version: r.stdout.trim() } : undefined;
    },
    'golang-go',
    'the Go toolchain for its independent Go oracle: `sudo apt-get install golang-go` (Debian/Ubuntu), or point CARTOGRAPH_GO at a go binary.',
  );
}

/**
 * Go's own type checker (go/types, run by bench/context/go_oracle.go) for every identifier in `files`;
 * the toolchain is $CARTOGRAPH_GO, else `go` on PATH.
 */
export function goOracle(root: string, files: string[]): OracleAnswers {
  const { go, version } = goToolchain();
  return cached(`go-${contentKey(version, root, files)}`, () => {
    const out = execFileSync(go, ['run', path.join(__dirname, 'go_oracle.go')], {
      input: JSON.stringify({ root, files }),
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      cwd: cacheDir(),
      // A single-file program: no module of its own to resolve.
      env: { ...process.env, GO111MODULE: 'off' },
    });
    return answersFromLines(out);
  });
}

/**
 * A rustc that still writes save-analysis (`-Zsave-analysis`, removed in Rust 1.66; Debian 12's rustc
 * 1.63 has it, unlocked by RUSTC_BOOTSTRAP=1) and the cargo of the same toolchain: $CARTOGRAPH_RUSTC,
 * Debian's /usr/bin/rustc, then `rustc` on PATH; Debian's cargo (with its rustc) is installed when none does.
 */
export function rustToolchain(): { rustc: string; cargo: string; version: string } {
  return oracleTool(
    [process.env.CARTOGRAPH_RUSTC, '/usr/bin/rustc', 'rustc'],
    (rustc) => {
      const z = spawnSync(rustc, ['-Z', 'help'], { encoding: 'utf8', env: { ...process.env, RUSTC_BOOTSTRAP: '1' } });
      if (z.status !== 0 || !z.stdout.includes('save-analysis')) return undefined;
      const sysroot = spawnSync(rustc, ['--print', 'sysroot'], { encoding: 'utf8' }).stdout.trim();
      const cargo = path.join(sysroot, 'bin', 'cargo');
      const version = spawnSync(rustc, ['--version'], { encoding: 'utf8' }).stdout.trim();
      return fs.existsSync(cargo) ? { rustc, cargo, version } : undefined;
    },
    'cargo',
    'a rustc with -Zsave-analysis (1.65 or older) and its cargo for the independent Rust oracle: `sudo apt-get install cargo` (Debian 12: rustc 1.63), or point CARTOGRAPH_RUSTC at such a rustc.',
  );
}

/**
 * rustc's own name resolution and type checking for the library of the crate at `root` (its
 * Cargo.toml), read from the save-analysis JSON `cargo check --lib` writes: every reference and
 * `use` whose definition is an item of the same crate in another file (modules left out, as Jedi's and
 * go/types' package names are). Only what this target compiles is answered: code behind a `cfg` that
 * is off here (Windows, `#[cfg(test)]`, features not in `features`) has no answers. Dependencies come
 * offline from Debian's crate registry (/usr/share/cargo/registry); dev-dependencies are dropped from a
 * copy of the manifest, as a library check never needs them. Missing ones are installed (as root) with
 * the crate's own Debian package, `librust-<name>-dev`, which depends on them.
 */
export function rustOracle(root: string, files: string[], features: string[] = []): OracleAnswers {
  const toolchain = rustToolchain();
  return cached(`rust-${contentKey(`${toolchain.version} save-analysis --features ${features.join(',')}`, root, ['Cargo.toml', ...files])}`, () => {
    // A copy: cargo writes target/ and the manifest is changed; built once per cache miss (~1 min for tokio).
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-rust-oracle-'));
    try {
      return rustAnalysis(toolchain, root, work, files, features);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
}

/** `cargo check --lib` of a copy of the crate at `root` in `work`, with save-analysis on. */
function rustAnalysis(toolchain: { rustc: string; cargo: string }, root: string, work: string, files: string[], features: string[]): OracleAnswers {
  fs.cpSync(root, work, { recursive: true, filter: (src) => !/[\\/](target|\.git)$/.test(src) });
  fs.rmSync(path.join(work, 'Cargo.lock'), { force: true });
  const manifest = withoutDevDependencies(fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8'));
  fs.writeFileSync(path.join(work, 'Cargo.toml'), manifest);
  fs.mkdirSync(path.join(work, '.cargo'), { recursive: true });
  fs.writeFileSync(path.join(work, '.cargo', 'config.toml'), '[source.crates-io]\nreplace-with = "debian"\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n');
  const crate = /^\s*name\s*=\s*"([^"]+)"/m.exec(manifest.split(/^\[package\]/m)[1] ?? '')?.[1];
  if (!crate) throw new Error(`bench:context: no [package] name in ${root}/Cargo.toml`);
  const check = () =>
    spawnSync(toolchain.cargo, ['check', '--offline', '--lib', ...(features.length > 0 ? ['--features', features.join(',')] : [])], {
      cwd: work,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      // Its own CARGO_HOME: a user's ~/.cargo/config must not point the build elsewhere.
      env: { ...process.env, RUSTC: toolchain.rustc, RUSTC_BOOTSTRAP: '1', RUSTFLAGS: '-Zsave-analysis', CARGO_HOME: path.join(work, '.cargo-home') },
    });
  let r = check();
  if (r.status !== 0 && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    const pkg = `librust-${crate.replace(/_/g, '-')}-dev`;
    console.error(`bench:context: cargo check failed; installing the crate's dependencies from Debian (apt-get install -y ${pkg}) ...`);
    spawnSync('apt-get', ['install', '-y', pkg], { stdio: 'inherit' });
    r = check();
  }
  if (r.status !== 0) throw new Error(`bench:context: \`cargo check --lib\` of ${root} failed (its dependencies must be in /usr/share/cargo/registry):\n${r.stderr.slice(-2000)}`);
  const dir = path.join(work, 'target', 'debug', 'deps', 'save-analysis');
  const analysis = fs.readdirSync(dir).find((f) => f.startsWith(`lib${crate.replace(/-/g, '_')}-`) && f.endsWith('.json'));
  if (!analysis) throw new Error(`bench:context: rustc wrote no save-analysis for ${crate} under ${dir}`);
  return answersFromSaveAnalysis(JSON.parse(fs.readFileSync(path.join(dir, analysis), 'utf8')) as SaveAnalysis, new Set(files));
}

/** The manifest without its `[dev-dependencies]` tables (target-specific ones included). */
function withoutDevDependencies(manifest: string): string {
  let dropping = false;
  return manifest
    .split('\n')
    .filter((line) => {
      if (/^\s*\[/.test(line)) dropping = /dev-dependencies/.test(line);
      return !dropping;
    })
    .join('\n');
}

interface SaveAnalysisSpan {
  file_name: string;
  line_start: number;
}

/** The parts of rls-data's save-analysis JSON read here; ids with krate 0 are the crate's own. */
export interface SaveAnalysis {
  defs: Array<{ kind: string; id: { krate: number; index: number }; span: SaveAnalysisSpan; name: string }>;
  refs: Array<{ span: SaveAnalysisSpan; ref_id: { krate: number; index: number } }>;
  imports: Array<{ span: SaveAnalysisSpan; ref_id?: { krate: number; index: number } | null; name: string }>;
}

/** Per line of `files`, the items of the crate in another of `files` that rustc resolved a name or `use` on that line to. */
export function answersFromSaveAnalysis(data: SaveAnalysis, files: Set<string>): OracleAnswers {
  const defs = new Map(data.defs.filter((d) => d.id.krate === 0).map((d) => [d.id.index, d]));
  const answers: OracleAnswers = new Map();
  const uses = [...data.refs, ...data.imports.flatMap((i) => (i.ref_id ? [{ span: i.span, ref_id: i.ref_id }] : []))];
  for (const { span, ref_id } of uses) {
    if (ref_id.krate !== 0 || !files.has(span.file_name)) continue;
    // A definition rustc does not dump was generated by a macro: it has no place in the source.
    const def = defs.get(ref_id.index);
    if (!def || def.kind === 'Mod' || def.kind === 'Local' || def.span.file_name === span.file_name || !files.has(def.span.file_name)) continue;
    addDefinition(answers, span.file_name, span.line_start - 1, { path: def.span.file_name, line: def.span.line_start - 1, name: def.name, kind: def.kind });
  }
  return answers;
}

/** A JDK's `java` (11 or later runs a single-file program): $CARTOGRAPH_JAVA, then `java` on PATH; Debian's JDK is installed when missing. */
function javaRuntime(): { java: string; version: string } {
  return oracleTool(
    [process.env.CARTOGRAPH_JAVA, 'java'],
    (java) => {
      const r = spawnSync(java, ['-version'], { encoding: 'utf8' });
      // a JRE cannot run the oracle: javac's Tree API comes with the JDK (jdk.compiler)
      const jdk = spawnSync(java, ['--describe-module', 'jdk.compiler'], { encoding: 'utf8' });
      return r.status === 0 && jdk.status === 0 ? { java, version: (r.stderr.split('\n')[0] ?? '').trim() } : undefined;
    },
    'default-jdk-headless',
    "a JDK (11 or later) for its independent Java oracle: `sudo apt-get install default-jdk-headless`, or point CARTOGRAPH_JAVA at a JDK's java.",
  );
}

/** javac's own attribution (the Compiler Tree API) for every name in `files` (bench/context/JavaOracle.java). */
export function javaOracle(root: string, files: string[]): OracleAnswers {
  const { java, version } = javaRuntime();
  return cached(`java-${contentKey(`javac ${version}`, root, files)}`, () => {
    return answersFromLines(execFileSync(java, [path.join(__dirname, 'JavaOracle.java'), root, ...files], { encoding: 'utf8', maxBuffer: 1 << 30, cwd: cacheDir() }));
  });
}

export function cacheDir(): string {
  fs.mkdirSync(CACHE, { recursive: true });
  return CACHE;
}

/** A TypeScript language service over a corpus's files (absolute paths) loaded as one program. */
export function corpusLanguageService(root: string, abs: string[]): ts.LanguageService {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, skipLibCheck: true, noEmit: true, allowImportingTsExtensions: true };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => abs,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, 'utf8')) : undefined),
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

/** The TypeScript language service's `getDefinitionAtPosition` for every identifier in `files`. */
export function typescriptOracle(root: string, files: string[]): OracleAnswers {
  return cached(`ts-${contentKey(`ts ${ts.version}`, root, files)}`, () => {
    const abs = files.map((f) => path.join(root, f));
    const service = corpusLanguageService(root, abs);
    const program = service.getProgram()!;
    const realRoot = fs.realpathSync(root);
    const answers: OracleAnswers = new Map();
    for (const [i, file] of abs.entries()) {
      const source = program.getSourceFile(file);
      if (!source) continue;
      const visit = (node: ts.Node) => {
        if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
          const start = node.getStart(source);
          const line = source.getLineAndCharacterOfPosition(start).line;
          for (const d of service.getDefinitionAtPosition(file, start) ?? []) {
            const target = fs.existsSync(d.fileName) ? fs.realpathSync(d.fileName) : d.fileName;
            if (!target.startsWith(realRoot + path.sep) || target === fs.realpathSync(file) || target.includes(`${path.sep}node_modules${path.sep}`)) continue;
            const targetSource = program.getSourceFile(d.fileName);
            if (!targetSource || d.kind === ts.ScriptElementKind.moduleElement) continue;
            const defLine = targetSource.getLineAndCharacterOfPosition(d.textSpan.start).line;
            addDefinition(answers, files[i], line, { path: path.relative(realRoot, target), line: defLine, name: d.name, kind: d.kind });
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    return answers;
  });
}

/**
 * The graph node an oracle definition is: the innermost node of its file with its name whose range
 * holds its line, else a member with that name of the innermost class holding the line (Jedi points
 * `request.environ` at `self.environ = environ` inside `__init__`; the graph's node for the field is
 * the class's `environ`, declared elsewhere in the class); `@2` suffixes removed. Undefined when the
 * graph has no such node.
 */
export function nodeForDefinition(index: SymbolIndex, def: OracleDefinition): string | undefined {
  const innermost = (match: (n: IndexedSymbol) => boolean) => {
    let best: IndexedSymbol | undefined;
    for (const n of index.get(def.path) ?? []) if (match(n) && (!best || n.end - n.start < best.end - best.start)) best = n;
    return best;
  };
  const holds = (n: IndexedSymbol) => def.line >= n.start && def.line <= n.end;
  const own = innermost((n) => n.name === def.name && holds(n));
  if (own) return own.id.replace(/@\d+$/, '');
  const cls = innermost((n) => n.isClass && holds(n));
  // `new Observable(...)`: the language service names the constructor (`__constructor`, an
  // interface's `__new`) beside the class; the graph's node for it is the class.
  if (cls && /^__(constructor|new|call)$/.test(def.name)) return cls.id.replace(/@\d+$/, '');
  const member = cls && (index.get(def.path) ?? []).find((n) => n.parent === cls.id && n.name === def.name);
  return member?.id.replace(/@\d+$/, '');
}

interface IndexedSymbol {
  id: string;
  name: string;
  start: number;
  end: number;
  isClass: boolean;
  /** The class, interface or function the symbol is a member of. */
  parent?: string;
}

export type SymbolIndex = Map<string, IndexedSymbol[]>;

/** Symbol nodes per file, for nodeForDefinition. */
export function symbolIndex(graph: RepositoryGraph): SymbolIndex {
  const index: SymbolIndex = new Map();
  const g = graph.graph;
  g.forEachNode((id, a) => {
    if (!a.range || !id.includes('#')) return;
    let list = index.get(a.path);
    if (!list) index.set(a.path, (list = []));
    let parent: string | undefined;
    g.forEachInEdge(id, (_e, edge) => {
      if (edge.kind === 'HAS_FIELD' || edge.kind === 'HAS_METHOD') parent = edge.source;
    });
    list.push({ id, name: a.name, start: a.range.startLine, end: a.range.endLine, isClass: a.kind === 'Class' || a.kind === 'Interface', parent });
  });
  return index;
}
