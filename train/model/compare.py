"""Scores exported models (folders written by train.py: tokenizer.json + onnx/model_quantized.onnx) on
the same validation pairs, so two versions trained on different data can be compared.

    /usr/bin/python3 train/model/compare.py OLD_MODEL_DIR models/cartograph-code-search-v5 \
        --packages-from OLD_TRAIN_DATA_REPORT.json [--bench train/.data/bench-dev.json]

Validation splits move when the manifest grows (it is by package, seeded over the package list), so a
figure from one training report is not comparable with another's. `--packages-from` keeps only the
validation pairs of packages held out by an older data report (its `pairs.validationPackages`):
packages neither model was trained on. Each model reads the texts with its own tokenizer; the int8
rows times their scales, then the pooling's per-token scaling, are what the product's ONNX session
computes (models without a mixer).
"""

import argparse
import json
import os
import sys

import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(__file__))
import bench_eval  # noqa: E402
from passages import passage  # noqa: E402
from tokenizer import WordPiece  # noqa: E402
from train import Encoder, bm25_ranks, embed_all, evaluate, metrics, read  # noqa: E402


class ExportedBag(torch.nn.Module):
    """forward() as the exported graph: row lookup times its scale, then the encoder's own per-token output
    (padding masked; with attention pooling, each vector scaled by its weight). Pooling is the caller's."""

    def __init__(self, rows, scale, score):
        super().__init__()
        self.rows = rows
        self.scale = scale
        self.inner = Encoder(rows.shape[0], rows.shape[1], "none", "mean" if score is None else "attention")
        if score is not None:
            with torch.no_grad():
                self.inner.score.weight.copy_(score.reshape(1, -1))

    def forward(self, ids, mask):
        return self.inner.tokens(self.rows[ids].to(torch.float32) * self.scale[ids].unsqueeze(-1), mask)


def load(model_dir):
    with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    if config.get("cartograph", {}).get("mixer", "none") != "none":
        sys.exit(f"{model_dir}: only models without a mixer can be scored here")
    with open(os.path.join(model_dir, "tokenizer.json"), encoding="utf-8") as f:
        ids = json.load(f)["model"]["vocab"]
    vocab = [t for t, _ in sorted(ids.items(), key=lambda kv: kv[1])]
    graph = onnx.load(os.path.join(model_dir, "onnx", "model_quantized.onnx")).graph
    tensors = [numpy_helper.to_array(t) for t in graph.initializer]
    rows = next(t for t in tensors if t.dtype.name == "int8" and t.ndim == 2 and t.shape[0] == len(vocab))
    scale = next(t for t in tensors if t.dtype.name == "float32" and t.ndim == 1 and t.shape[0] == len(vocab))
    # Attention pooling's score: the one dim x 1 (or 1 x dim) float matrix of the graph.
    score = None
    if config.get("cartograph", {}).get("pooling", "mean") == "attention":
        score = next(torch.from_numpy(t.copy()) for t in tensors if t.dtype.name == "float32" and t.ndim == 2 and sorted(t.shape) == [1, rows.shape[1]])
    return WordPiece(vocab), ExportedBag(torch.from_numpy(rows.copy()), torch.from_numpy(scale.copy()), score).eval()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="+", help="exported model folders")
    p.add_argument("--data", default="train/.data")
    p.add_argument("--packages-from", help="a train:data JSON report: keep only its validation packages")
    p.add_argument("--bench", default=None, help="bench/search/model-dev-set.ts output: flat NDCG@10 on the dev corpora too")
    p.add_argument("--max-query", type=int, default=48)
    p.add_argument("--max-passage", type=int, default=192)
    p.add_argument("--json", default=None)
    args = p.parse_args()
    torch.set_num_threads(2)
    validation = read(os.path.join(args.data, "validation.jsonl.gz"))
    if args.packages_from:
        with open(args.packages_from, encoding="utf-8") as f:
            keep = set(json.load(f)["pairs"]["validationPackages"])
        validation = [r for r in validation if r["package"] in keep]
    packages = sorted({r["package"] for r in validation})
    print(f"{len(validation)} validation pairs from {len(packages)} packages", flush=True)
    out = {"validationPairs": len(validation), "packages": packages, "models": {}}
    for model_dir in args.models:
        tok, model = load(model_dir)
        val = {
            "queries": [tok.encode(r["query"], args.max_query) for r in validation],
            "passages": [tok.encode(passage(r), args.max_passage) for r in validation],
            "packages": [r["package"] for r in validation],
        }
        result = {**evaluate(model, val), "bm25PerPackage": metrics(bm25_ranks(val))}
        if args.bench:
            corpora = bench_eval.load(args.bench, tok, args.max_query, args.max_passage)
            result["benchFlat"] = bench_eval.evaluate(lambda seqs: embed_all(model, seqs), corpora)
        out["models"][os.path.basename(os.path.normpath(model_dir))] = result
        pp = result["perPackage"]
        bench = f"; bench flat {result['benchFlat']['all']:.3f}" if "benchFlat" in result else ""
        print(f"{model_dir}: per-package NDCG@10 {pp['ndcg@10']:.3f} R@1 {pp['recall@1']:.3f} MRR@10 {pp['mrr@10']:.3f}; all-validation NDCG@10 {result['allValidation']['ndcg@10']:.3f}; BM25 (its tokens) {result['bm25PerPackage']['ndcg@10']:.3f}{bench}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
