"""Flat embedding search on the bench:search dev corpora, scored the way bench:search scores it.

The file comes from `node --import tsx bench/search/model-dev-set.ts FILE`: per corpus, the node texts
the product embeds (docstrings stripped) and the natural-language queries with their answer's key.
Each query ranks every node of its corpus by cosine; node keys are deduplicated (overloads collapse)
and the top 10 scored. Code of these corpora is never trained on: this only reports, and the
trainer never picks an epoch by it.
"""

import json
import math

import torch


def load(path, tok, max_query, max_passage):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    corpora = {}
    for name, c in data.items():
        corpora[name] = {
            "keys": [n["key"] for n in c["nodes"]],
            "nodes": [tok.encode(n["text"], max_passage) or [tok.unk] for n in c["nodes"]],
            "queries": [tok.encode(q["query"], max_query) or [tok.unk] for q in c["queries"]],
            "answers": [q["key"] for q in c["queries"]],
        }
    return corpora


def ndcg_at_10(scores, keys, answers):
    total = 0.0
    order = torch.argsort(scores, dim=1, descending=True)[:, :60].tolist()
    for row, answer in zip(order, answers):
        seen = []
        for i in row:
            k = keys[i]
            if k not in seen:
                seen.append(k)
            if len(seen) == 10:
                break
        if answer in seen:
            total += 1 / math.log2(seen.index(answer) + 2)
    return total


def evaluate(embed, corpora):
    """{corpus: NDCG@10, 'all': query-weighted mean}; `embed(list of token lists)` -> normalised vectors."""
    out, total, n = {}, 0.0, 0
    for name, c in corpora.items():
        q = embed(c["queries"])
        p = embed(c["nodes"])
        s = ndcg_at_10(q @ p.T, c["keys"], c["answers"])
        out[name] = s / len(c["answers"])
        total += s
        n += len(c["answers"])
    out["all"] = total / max(1, n)
    return out
