// Stage 2 for package-scoped languages (Java now; Go and Rust plug in next): a file sees the
// top-level names of every file of its package without importing them, so "which file defines
// `Foo` in package p?" must be a lookup with a key, like any module lookup (see moduleKeys.ts):
//
//   pkg:<lang>:<package>                  the package exists: provided by every file that belongs to it
//   pkg:<lang>:<package>#<Name>           a top-level name of the package: provided by the file defining it
//   pkg:<lang>:<scope>#<Type>.<method>    a method declared away from its type (SymbolDef.receiver):
//                                         provided by the file declaring the method
//
// A lookup consumes exactly the keys it asked for, so adding `Bar` to a package re-resolves only the
// files that looked `Bar` up there (and found nothing, or something else), and an edit inside a body
// provides the same keys and re-resolves nobody. What a language calls its package is its scheme:
// - Java: the dotted `package` clause (`com.google.gson`); packages nest by name only, so
//   `com.google.gson.internal` is reached from `com.google.gson` as a member (`pkg:java:<p>.<name>`).
// - Go: the package is the folder, named by its import path (go.mod module path + folder), so
//   `packageOf` returns that path and `func (s *Server) run()` in another file of the folder provides
//   `pkg:go:<path>#Server.run`. The path depends on the go.mod files (`manifest`): editing one re-keys
//   every Go file, and resolution consumes `manifest:go.mod` wherever it asked for a package.
// - Rust (next): `packageOf` returns the module path (`crate::a::b`), and `receiverScope` the crate,
//   because `impl T` may sit in any module of the crate: `pkg:rs:<crate>#T.method`.
import type { FileGraph } from '../parse/fileGraph';
import type { ManifestFile } from '../workspace/projectConfig';
import { goImportPath, goModulesOf } from './goModules';
import { dirOf } from './moduleKeys';
import type { ExternalFamily, Language } from './schema';

export interface PackageScheme {
  family: ExternalFamily;
  /** Separator between a package and a nested package's or member's name in the language's own notation. */
  separator: string;
  /**
   * The build manifest the package of a file depends on (Go: `go.mod`, whose module path names it):
   * an edit to one re-keys every file of the language. Absent: the file alone says (Java).
   */
  manifest?: string;
  /** The package a file's top-level names belong to; undefined when it has none. */
  packageOf(file: FileGraph, manifests: readonly ManifestFile[]): string | undefined;
  /** Where methods with a `receiver` are keyed: the package for Go, the crate for Rust. */
  receiverScope(file: FileGraph, manifests: readonly ManifestFile[]): string | undefined;
  /** Whether a method body sees its type's members by bare name (Java); Go reaches them through the receiver only. */
  typeMembersInScope: boolean;
  /** Whether a package is a folder (Go): an import of it points at the Folder node. */
  folderPackages: boolean;
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
  manifest: 'go.mod',
  packageOf: (file, manifests) => goImportPath(dirOf(file.path), goModulesOf(manifests)),
  receiverScope: (file, manifests) => goImportPath(dirOf(file.path), goModulesOf(manifests)),
  typeMembersInScope: false,
  folderPackages: true,
  implicit: () => undefined,
  isQualifiedName: () => false,
};

const SCHEMES: Partial<Record<Language, PackageScheme>> = {
  java: JAVA,
  go: GO,
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

/** Keys a file of a package-scoped language provides (empty for other languages). */
export function packageProvidedKeys(file: FileGraph, manifests: readonly ManifestFile[]): string[] {
  const scheme = packageScheme(file.language);
  const pkg = scheme?.packageOf(file, manifests);
  if (!scheme || pkg === undefined) return [];
  const keys = new Set([packageKey(file.language, pkg)]);
  const receiverScope = scheme.receiverScope(file, manifests);
  for (const sym of file.symbols) {
    if (sym.parent !== null) continue;
    if (!sym.receiver) keys.add(packageMemberKey(file.language, pkg, sym.name));
    else if (receiverScope !== undefined) keys.add(packageMemberKey(file.language, receiverScope, `${sym.receiver[sym.receiver.length - 1]}.${sym.name}`));
  }
  return [...keys];
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
