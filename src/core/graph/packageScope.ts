// Stage 2 for package-scoped languages (Java, Go, Rust): a file sees the
// top-level names of every file of its package without importing them, so "which file defines
// `Foo` in package p?" must be a lookup with a key, like any module lookup (see moduleKeys.ts):
//
//   pkg:<lang>:<package>                  the package exists: provided by every file that belongs to it
//   pkg:<lang>:<package>#<Name>           a top-level name of the package: provided by the file defining it
//   pkg:<lang>:<scope>#<Type>.<method>    a method declared away from its type (SymbolDef.receiver):
//                                         provided by the file declaring the method
//   pkg:<lang>:<package>=<name>           the name the package calls itself (Go's `package` clause):
//                                         provided by every file of the package that states it
//
// A lookup consumes exactly the keys it asked for, so adding `Bar` to a package re-resolves only the
// files that looked `Bar` up there (and found nothing, or something else), and an edit inside a body
// provides the same keys and re-resolves nobody. What a language calls its package is its scheme:
// - Java: the dotted `package` clause (`com.google.gson`); packages nest by name only, so
//   `com.google.gson.internal` is reached from `com.google.gson` as a member (`pkg:java:<p>.<name>`).
// - Go: the package is the folder, named by its import path (go.mod module path + folder), so
//   `packageOf` returns that path and `func (s *Server) run()` in another file of the folder provides
//   `pkg:go:<path>#Server.run`. The path depends on the go.mod files' module paths (`layoutKey`):
//   changing one re-keys every Go file; import resolution consumes `manifest:go.mod`. An import
//   without an alias binds the package's clause name (`github.com/json-iterator/go` → `jsoniter`),
//   which importers ask for by `pkg:go:<path>=<name>`: a clause edit re-resolves exactly them.
// - Rust: `packageOf` returns the module path (`tokio::runtime`, the crate's name for `crate`), and
//   `receiverScope` the crate, because `impl T` may sit in any module of the crate:
//   `pkg:rust:<crate>#T.method`. A module is one file plus its inline modules (`mod inner {}`:
//   package `<module>::inner`), so a package has one file, not many; which crate and module a file
//   is depends on the Cargo.toml files, on which files exist and on the `mod` declarations (the
//   ProjectLayout): a declaration added or removed re-keys the files it moves (movedFiles).
import type { FileGraph, SymbolDef } from '../parse/fileGraph';
import type { ManifestFile } from '../workspace/projectConfig';
import { goImportPath, goModulesOf } from './goModules';
import { dirOf } from './moduleKeys';
import { crateLayout, crateId, movedModules, rustModuleOf, rustModulePath, type ModDeclaration } from './rustModules';
import type { ExternalFamily, Language } from '../model/schema';

/** What a scheme may read besides the file itself. */
export interface ProjectLayout {
  /** The repository's build manifests (go.mod, Cargo.toml). */
  manifests: readonly ManifestFile[];
  /** Every file path of the repository: a new set whenever a file is added or removed. */
  paths: ReadonlySet<string>;
  /** Rust files' `mod x;` declarations (rustModules.ts withModDeclarations): a new map whenever one changes. */
  modDeclarations: ReadonlyMap<string, readonly ModDeclaration[]>;
}

export interface PackageScheme {
  family: ExternalFamily;
  /** Separator between a package and a nested package's or member's name in the language's own notation. */
  separator: string;
  /** The package a file's top-level names belong to; undefined when it has none. */
  packageOf(file: FileGraph, layout: ProjectLayout): string | undefined;
  /** Where methods with a `receiver` are keyed: the package for Go, the crate for Rust. */
  receiverScope(file: FileGraph, layout: ProjectLayout): string | undefined;
  /**
   * What of the layout packageOf and receiverScope read, as a string: when it changes, every file of
   * the language is re-keyed and re-resolved. Absent when they read the file alone.
   */
  layoutKey?(layout: ProjectLayout): string;
  /** Files whose package differs between two layouts of the same layoutKey (Rust: a `mod` declaration moved them). */
  movedFiles?(before: ProjectLayout, after: ProjectLayout): string[];
  /** Whether a method body sees its type's members by bare name (Java); Go reaches them through the receiver only. */
  typeMembersInScope: boolean;
  /** Whether a package is a folder (Go): an import of it points at the Folder node. */
  folderPackages: boolean;
  /** The name a file says its package has, which an import without an alias binds (Go); absent where imports name what they bind. */
  clauseName?(file: FileGraph): string | undefined;
  /** A name every file sees without an import (Java's java.lang), as an external name. */
  implicit(name: string): string | undefined;
  /**
   * Whether an unresolved chain is a fully qualified name written out in code (Java's
   * `java.util.Collections.sort`); Go and Rust reach other packages only through imports and paths.
   */
  isQualifiedName(chain: string[]): boolean;
}

const JAVA: PackageScheme = {
  family: 'java',
  separator: '.',
  packageOf: (file) => file.package,
  receiverScope: (file) => file.package,
  typeMembersInScope: true,
  folderPackages: false,
  implicit: (name) => (JAVA_LANG.has(name) ? `java.lang.${name}` : undefined),
  isQualifiedName: looksQualified,
};

/** Go's package: the import path of the file's folder. Predeclared names never reach stage 2 (go.ts drops them). */
const GO: PackageScheme = {
  family: 'go',
  separator: '/',
  packageOf: (file, layout) => goImportPath(dirOf(file.path), goModulesOf(layout.manifests)),
  receiverScope: (file, layout) => goImportPath(dirOf(file.path), goModulesOf(layout.manifests)),
  layoutKey: (layout) => goModulesOf(layout.manifests).map((m) => `${m.dir}=${m.mod.module}`).join('\n'),
  typeMembersInScope: false,
  folderPackages: true,
  // A `_test.go` file is compiled only into its package's tests (and `package x_test` is another
  // package): importers see the clause of the other files.
  clauseName: (file) => (file.path.endsWith('_test.go') ? undefined : file.package),
  implicit: () => undefined,
  isQualifiedName: () => false,
};

/** Rust's package: the module path of the file in its crate; the crate is where impls are keyed. */
const RUST: PackageScheme = {
  family: 'rs',
  separator: '::',
  packageOf: (file, layout) => rustModulePath(file.path, layout)?.join('::'),
  receiverScope: (file, layout) => {
    const place = rustModuleOf(file.path, layout);
    return place ? crateId(place.crate) : undefined;
  },
  layoutKey: (layout) => crateLayout(layout.manifests, layout.paths).key,
  movedFiles: movedModules,
  // `impl T { fn a(&self) { b() } }`: a bare `b` is never T's method; members are reached through self.
  typeMembersInScope: false,
  folderPackages: false,
  implicit: () => undefined,
  isQualifiedName: () => false,
};

const SCHEMES: Partial<Record<Language, PackageScheme>> = {
  java: JAVA,
  go: GO,
  rust: RUST,
};

export function packageScheme(language: Language): PackageScheme | undefined {
  return SCHEMES[language];
}

export function packageKey(language: Language, pkg: string): string {
  return `pkg:${language}:${pkg}`;
}

export function packageMemberKey(language: Language, pkg: string, name: string): string {
  return `pkg:${language}:${pkg}#${name}`;
}

/** Provided when a file of `pkg` says the package is called `name` (see PackageScheme.clauseName). */
export function packageClauseKey(language: Language, pkg: string, name: string): string {
  return `pkg:${language}:${pkg}=${name}`;
}

/** Keys a file of a package-scoped language provides (empty for other languages). */
export function packageProvidedKeys(file: FileGraph, layout: ProjectLayout): string[] {
  const scheme = packageScheme(file.language);
  const pkg = scheme?.packageOf(file, layout);
  if (!scheme || pkg === undefined) return [];
  const keys = new Set([packageKey(file.language, pkg)]);
  const clause = scheme.clauseName?.(file);
  if (clause) keys.add(packageClauseKey(file.language, pkg, clause));
  // Rust inline modules are packages nested in the file's (`mod inner {}` → `<pkg>::inner`).
  const nested = (inline: string) => (inline ? `${pkg}${scheme.separator}${inline.split('.').join(scheme.separator)}` : pkg);
  for (const inline of file.inlineModules ?? []) keys.add(packageKey(file.language, nested(inline)));
  const receiverScope = scheme.receiverScope(file, layout);
  for (const sym of file.symbols) {
    if (sym.parent !== null) continue;
    if (!sym.receiver) keys.add(packageMemberKey(file.language, nested(inlineModuleOf(sym)), sym.name));
    else if (receiverScope !== undefined) keys.add(packageMemberKey(file.language, receiverScope, `${sym.receiver[sym.receiver.length - 1]}.${sym.name}`));
    // A macro is named by its bare name anywhere in its crate after its definition (`#[macro_use]`,
    // `#[macro_export]`): keyed at the crate as `name!`.
    if (isMacro(sym) && receiverScope !== undefined) keys.add(packageMemberKey(file.language, receiverScope, `${sym.name}!`));
  }
  for (const ref of file.refs) if (ref.subject && receiverScope !== undefined) keys.add(subjectKey(file.language, receiverScope, ref.subject, ref.chain));
  return [...keys];
}

/**
 * An INHERITS edge whose subtype is in another file (`impl From<A> for T` in a.rs, `impl From<B>
 * for T` in b.rs) is the same edge from every file that writes it, and an edge has one owner: the
 * file that provides this key first draws it.
 */
export function subjectKey(language: Language, scope: string, subject: string[], chain: string[]): string {
  return packageMemberKey(language, scope, `${subject[subject.length - 1]}^${chain[chain.length - 1]}`);
}

/** The inline module path a top-level definition sits in (`inner.Thing` → 'inner'), '' at file level. */
export function inlineModuleOf(sym: SymbolDef): string {
  const localId = sym.localId.replace(/@\d+$/, '');
  return localId.length > sym.name.length ? localId.slice(0, localId.length - sym.name.length - 1) : '';
}

/** A Rust `macro_rules!` definition (indexed as a Function, see parse/rust/macros.ts). */
export function isMacro(sym: SymbolDef): boolean {
  return sym.kind === 'Function' && sym.signature.startsWith('macro_rules!');
}

/** A fully qualified Java name written in code (`java.util.Collections.sort`): lower-case packages, then a type. */
function looksQualified(chain: string[]): boolean {
  const type = chain.findIndex((part) => /^[A-Z]/.test(part));
  return type > 0 && chain.slice(0, type).every((part) => /^[a-z][a-z0-9_]*$/.test(part));
}

/** java.lang: the package every Java file imports implicitly (public types of JDK 21's java.lang). */
const JAVA_LANG = new Set([
  'AbstractMethodError', 'Appendable', 'ArithmeticException', 'ArrayIndexOutOfBoundsException', 'ArrayStoreException',
  'AssertionError', 'AutoCloseable', 'Boolean', 'BootstrapMethodError', 'Byte', 'Character', 'CharSequence', 'Class',
  'ClassCastException', 'ClassCircularityError', 'ClassFormatError', 'ClassLoader', 'ClassNotFoundException', 'ClassValue',
  'CloneNotSupportedException', 'Cloneable', 'Comparable', 'Deprecated', 'Double', 'Enum', 'EnumConstantNotPresentException',
  'Error', 'Exception', 'ExceptionInInitializerError', 'Float', 'FunctionalInterface', 'IllegalAccessError',
  'IllegalAccessException', 'IllegalArgumentException', 'IllegalCallerException', 'IllegalMonitorStateException',
  'IllegalStateException', 'IllegalThreadStateException', 'IncompatibleClassChangeError', 'IndexOutOfBoundsException',
  'InheritableThreadLocal', 'InstantiationError', 'InstantiationException', 'Integer', 'InternalError', 'InterruptedException',
  'Iterable', 'LayerInstantiationException', 'LinkageError', 'Long', 'MatchException', 'Math', 'Module', 'ModuleLayer',
  'NegativeArraySizeException', 'NoClassDefFoundError', 'NoSuchFieldError', 'NoSuchFieldException', 'NoSuchMethodError',
  'NoSuchMethodException', 'NullPointerException', 'Number', 'NumberFormatException', 'Object', 'OutOfMemoryError', 'Override',
  'Package', 'Process', 'ProcessBuilder', 'ProcessHandle', 'Readable', 'Record', 'ReflectiveOperationException', 'Runnable',
  'Runtime', 'RuntimeException', 'RuntimePermission', 'SafeVarargs', 'ScopedValue', 'SecurityException', 'SecurityManager',
  'Short', 'StackOverflowError', 'StackTraceElement', 'StackWalker', 'StrictMath', 'String', 'StringBuffer', 'StringBuilder',
  'StringIndexOutOfBoundsException', 'SuppressWarnings', 'System', 'Thread', 'ThreadDeath', 'ThreadGroup', 'ThreadLocal',
  'Throwable', 'TypeNotPresentException', 'UnknownError', 'UnsatisfiedLinkError', 'UnsupportedClassVersionError',
  'UnsupportedOperationException', 'VerifyError', 'VirtualMachineError', 'Void', 'WrongThreadException',
]);
