"""The two sides of a training pair, in the shape the product sees them.

The index embeds `nodeText` (src/core/search/nodeText.ts): the enclosing module/class names, the
signature, the docstring (absent in bench:search, which strips them) and `uses <names>`, the names of
what the node calls, uses and inherits as the graph resolved them. A training pair has the function's
code instead of its graph edges, so `uses` is rebuilt from the code: the names it calls and the
capitalised names (classes, types) it mentions, first occurrence first. Training on raw code would
teach the model a text it never gets in the product.
"""

import re

MAX_PASSAGE_CHARS = 1000  # MAX_PASSAGE_CHARS in nodeText.ts

_KEYWORDS = set(
    "if elif else while for return and or not in is with assert del lambda yield except raise import from as "
    "def class try finally pass break continue global nonlocal async await print self cls none true false "
    "function const let var new typeof instanceof switch case catch throw this super void of".split()
)
_CALL = re.compile(r"(?:([A-Za-z_][A-Za-z0-9_]*|\))\s*\.\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\(")
# Receivers whose methods the graph resolves: the class's own (`self.x()`, `this.x()`) and a named
# class's (`Path.exists()`). A call on any other value (`items.append()`) has no edge in the graph,
# so it is not in the product's `uses` either.
_RESOLVED_RECEIVERS = {"self", "cls", "this"}
_TYPE = re.compile(r"\b([A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*)\b")


def context(path: str, qname: str) -> str:
    """The last three names above the node in the graph's qualified name (package, module, class)."""
    module = re.sub(r"\.(py|pyi|ts|tsx)$", "", path).split("/")
    if module and module[-1] in ("__init__", "index"):
        module = module[:-1]
    parts = [p for p in module + qname.split(".") if p]
    return " ".join(parts[:-1][-3:])


_STRINGS_AND_COMMENTS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|#[^\n]*|//[^\n]*|/\*[\s\S]*?\*/'
)


def uses(code: str, own_name: str) -> str:
    """Names the graph would link: calls and capitalised names in the code, not in its strings or comments."""
    code = _STRINGS_AND_COMMENTS.sub(" ", code)
    seen: dict[str, None] = {}
    body = code.split("\n", 1)[1] if "\n" in code else ""
    for match in _CALL.finditer(body):
        receiver, name = match.group(1), match.group(2)
        if receiver is not None and receiver not in _RESOLVED_RECEIVERS and not receiver[:1].isupper():
            continue
        if name.lower() not in _KEYWORDS and name != own_name:
            seen.setdefault(name)
    for match in _TYPE.finditer(code):
        name = match.group(1)
        if name.lower() not in _KEYWORDS and name != own_name:
            seen.setdefault(name)
    return " ".join(seen)


def passage(record: dict) -> str:
    name = record["qname"].split(".")[-1]
    used = uses(record["code"], name)
    parts = [context(record["path"], record["qname"]), record["signature"] or name, used and f"uses {used}"]
    return "\n".join(p for p in parts if p)[:MAX_PASSAGE_CHARS]
