// Which files a question names: bug reports say where the trouble is in so many words —
// a path (`sympy/printing/latex.py`, a traceback's `File ".../_pytest/python.py"`), a module's dotted
// name (`sklearn.utils.validation`, `matplotlib.style.core.use`), or a module by its own name ("the
// LaTeX printer" → latex.py, "widgets" → widgets.py). Text similarity misses these when the named file
// shares few other words with the text, or when a hub file shares more.

/** A path with a source extension, as a traceback or a sentence writes it. */
const PATH_MENTION = /[\w.\-/\\]*\w\.(?:py|pyx|pyi|js|jsx|mjs|cjs|ts|tsx|go|rs|java|kt|rb|php|c|cc|cpp|h|hpp|cs)\b/g;
/** A dotted name of two parts or more: `matplotlib.pyplot`, `sklearn.utils.validation.check_array`. */
const DOTTED = /\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+/g;
/** A word as prose writes it; compared with module names lower-cased. */
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/** How strongly each kind of mention names its file (a bare module name is the weakest: "figure" is a word too). */
export const MENTION_WEIGHTS = { path: 1, module: 1, name: 0.5 } as const;

/** Module names too generic to name a file when said as a word. */
const GENERIC_NAMES = new Set(['__init__', '__main__', 'index', 'main', 'base', 'core', 'utils', 'util', 'common', 'types', 'errors', 'exceptions', 'compat', 'constants', 'misc', 'api', 'conftest', 'setup']);

/** The dotted module name of a source path: `sympy/printing/latex.py` → sympy.printing.latex; a package's `__init__` → the package. */
function moduleName(path: string): string {
  return path
    .replace(/\.[^./]+$/, '')
    .replace(/\/(?:__init__|index)$/, '')
    .split('/')
    .join('.');
}

export class FileMentions {
  private readonly byModule = new Map<string, string>();
  private readonly byName = new Map<string, string[]>();
  private readonly bySuffix = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      // A package's dotted name is its `__init__`: one file, but a top-level package (`sympy`) is named by every issue.
      const module = moduleName(path);
      if (module.includes('.') && !this.byModule.has(module)) this.byModule.set(module, path);
      const base = path.slice(path.lastIndexOf('/') + 1);
      const name = base.replace(/\.[^.]+$/, '').toLowerCase();
      if (!GENERIC_NAMES.has(name)) push(this.byName, name, path);
      push(this.bySuffix, base, path);
    }
  }

  /** Each file the text names, with the weight of its strongest mention. */
  mentioned(text: string): Map<string, number> {
    const found = new Map<string, number>();
    const add = (paths: readonly string[], weight: number) => {
      // A name shared by several files names each of them less.
      for (const p of paths) found.set(p, Math.max(found.get(p) ?? 0, weight / paths.length));
    };
    // Words inside a path or dotted name that named a file are part of that mention, not names of their own.
    let prose = text;
    const named = (raw: string) => void (prose = prose.replace(raw, ' '));
    for (const [raw] of text.matchAll(PATH_MENTION)) {
      const mention = raw.replace(/\\/g, '/');
      const base = mention.slice(mention.lastIndexOf('/') + 1);
      const candidates = this.bySuffix.get(base) ?? [];
      // The longest agreement wins: `/usr/lib/python3/dist-packages/sympy/core/basic.py` is sympy/core/basic.py, not any basic.py.
      const exact = candidates.filter((p) => mention === p || mention.endsWith(`/${p}`) || p.endsWith(`/${mention}`));
      const paths = exact.length > 0 ? exact : mention.includes('/') ? [] : candidates;
      add(paths, MENTION_WEIGHTS.path);
      if (paths.length > 0) named(raw);
    }
    for (const [dotted] of text.matchAll(DOTTED)) {
      // `matplotlib.style.core.use` is matplotlib/style/core.py: the longest prefix that is a module.
      const parts = dotted.split('.');
      for (let n = parts.length; n >= 2; n--) {
        const path = this.byModule.get(parts.slice(0, n).join('.'));
        if (path) {
          add([path], MENTION_WEIGHTS.module);
          named(dotted);
          break;
        }
      }
    }
    for (const [word] of prose.matchAll(WORD)) {
      const paths = this.byName.get(word.toLowerCase());
      if (paths) add(paths, MENTION_WEIGHTS.name);
    }
    return found;
  }
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
