# The independent oracle of `bench:context` for Python: for every name used in a file, where Jedi
# (Debian python3-jedi, `goto(follow_imports=True)`) says it is defined, kept when that definition
# is in another file of the same repository. Cartograph's own resolver plays no part in it.
#
# stdin:  {"root": "/abs/corpus/dir", "files": ["app.py", ...]}
# stdout: one JSON object per file: {"path": "app.py", "refs": [[line, col, name, [[path, line, name, type], ...]], ...]}
#         (lines and columns 0-based; paths relative to root; only references with a cross-file definition)
import json
import os
import sysconfig
import sys

import jedi

# Modules are files, not definitions a line needs; parameters and keywords are never in another file.
SKIPPED_TYPES = {"module", "param", "keyword", "namespace"}


def corpus_project(root):
    """A Jedi project that sees the corpus (`root`, a package folder) and the standard library only."""
    # The corpus folder is a package (flask/, werkzeug/): its parent must be importable, and nothing
    # else besides the interpreter's own library, so an installed copy cannot shadow it. The sys path
    # is given whole: site- and dist-packages stay out (Debian's python3-click, installed as another
    # package's dependency, made Jedi answer click's own imports from /usr/lib/python3/dist-packages).
    stdlib = sysconfig.get_paths()["stdlib"]
    sys_path = [os.path.dirname(root), stdlib, os.path.join(stdlib, "lib-dynload")]
    return jedi.Project(path=os.path.dirname(root), sys_path=sys_path, smart_sys_path=False, load_unsafe_extensions=False)


def main():
    req = json.load(sys.stdin)
    root = os.path.realpath(req["root"])
    project = corpus_project(root)
    for rel in req["files"]:
        abs_path = os.path.join(root, rel)
        with open(abs_path, encoding="utf-8", errors="replace") as f:
            code = f.read()
        refs = []
        try:
            script = jedi.Script(code=code, path=abs_path, project=project)
            names = script.get_names(all_scopes=True, definitions=False, references=True)
        except Exception as err:  # a file Jedi cannot parse gives no truth, not a crash
            print(json.dumps({"path": rel, "refs": [], "error": str(err)}), flush=True)
            continue
        for name in names:
            try:
                targets = script.goto(name.line, name.column, follow_imports=True)
            except Exception:
                continue
            found = []
            for t in targets:
                if t.type in SKIPPED_TYPES or t.module_path is None or t.line is None:
                    continue
                target = os.path.realpath(str(t.module_path))
                if not target.startswith(root + os.sep) or target == os.path.realpath(abs_path):
                    continue
                found.append([os.path.relpath(target, root), t.line - 1, t.name, t.type])
            if found:
                refs.append([name.line - 1, name.column, name.name, found])
        print(json.dumps({"path": rel, "refs": refs}), flush=True)


if __name__ == "__main__":
    main()
