# The independent oracle of `bench:callers` for Python: for every call in a file, where Jedi
# (Debian python3-jedi, `goto(follow_imports=True)` on the callee's last name) says the callee is
# defined, in the same repository. Cartograph's own parser and resolver play no part in it: the
# calls are Python's own `ast.Call` nodes.
#
# stdin:  {"root": "/abs/corpus/dir", "files": ["app.py", ...]}
# stdout: one JSON object per file: {"path": "app.py", "calls": [[line, col, name, [[path, line, name], ...], outside], ...]}
#         (0-based lines; a target's line is its name's; paths relative to root; `outside` counts the
#         definitions Jedi found outside the repository: builtins, the standard library; a call Jedi
#         places nowhere has no targets and outside 0, and is still listed)
import ast
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "context"))
from jedi_oracle import corpus_project  # noqa: E402  (the same sys path policy as bench:context)

import jedi  # noqa: E402


def callee_position(call):
    """Where the callee's last name is written: `f(...)` at f, `a.b.f(...)` at f; None for other callees."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id, func.lineno, func.col_offset
    if isinstance(func, ast.Attribute) and func.end_lineno is not None:
        return func.attr, func.end_lineno, func.end_col_offset - len(func.attr.encode("utf-8"))
    return None


def sources(found):
    """Jedi answers with typeshed's stub where typeshed has one for the package (its third-party stubs
    cover jinja2, werkzeug, click...): the definition in the package's own source instead."""
    for d in found:
        if d.module_path is None or not str(d.module_path).endswith(".pyi"):
            yield d
            continue
        real = [e for e in d.goto(follow_imports=True, prefer_stubs=False) if e.module_path is not None and not str(e.module_path).endswith(".pyi")]
        yield from real or [d]


def calls_of(root, project, rel):
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8", errors="replace") as f:
        code = f.read()
    try:
        tree = ast.parse(code)
        script = jedi.Script(code=code, path=path, project=project)
    except (SyntaxError, ValueError):
        return []
    lines = code.splitlines()
    calls = []
    for node in ast.walk(tree):
        where = callee_position(node) if isinstance(node, ast.Call) else None
        if where is None:
            continue
        name, line, byte_col = where
        # ast's columns count UTF-8 bytes, Jedi's count characters.
        col = len(lines[line - 1].encode("utf-8")[:byte_col].decode("utf-8", "replace"))
        try:
            found = list(sources(script.goto(line, col, follow_imports=True)))
        except Exception:  # a construct Jedi fails on leaves the call open, not the run
            found = []
        targets = []
        outside = 0
        for d in found:
            target = os.path.realpath(str(d.module_path)) if d.module_path is not None else None
            if target is not None and d.line is not None and target.startswith(root + os.sep):
                targets.append([os.path.relpath(target, root), d.line - 1, d.name])
            else:
                outside += 1
        calls.append([line - 1, col, name, targets, outside])
    return calls


def main():
    req = json.load(sys.stdin)
    root = os.path.realpath(req["root"])
    project = corpus_project(root)
    for rel in req["files"]:
        print(json.dumps({"path": rel, "calls": calls_of(root, project, rel)}), flush=True)


if __name__ == "__main__":
    main()
