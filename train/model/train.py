"""Trains Cartograph's code-search bi-encoder and exports it for transformers.js.

    nice -n 10 npm run train:model   # /usr/bin/python3 train/model/train.py [--epochs N --limit N ...]

Reads train/.data/{train,validation}.jsonl.gz (npm run train:data). Pairs are (first docstring
sentence, nodeText-shaped passage: see passages.py). The model is a table of token vectors over an
identifier-aware WordPiece vocabulary (tokenizer.py), optionally followed by a small residual
convolution over neighbouring tokens; the text's vector is the mean of its token vectors,
L2-normalised (what transformers.js' feature-extraction pipeline does with `pooling: 'mean',
normalize: true`), or with `--pooling attention` their sum weighted by a learnt softmax over the
text's tokens (exported as token vectors already scaled so that the pipeline's mean is that sum). Trained with a symmetric InfoNCE loss over in-batch negatives. Validation after
every epoch on packages never seen in training: each query ranks every passage of its own package
(as bench:search ranks one repository), and the whole validation set. The best epoch by validation
NDCG@10 is exported: ONNX with `input_ids`, `attention_mask` -> `last_hidden_state`, token vectors
stored as int8 with one scale per row.
"""

import argparse
import gzip
import hashlib
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
import bench_eval  # noqa: E402
from passages import passage  # noqa: E402
from tokenizer import WordPiece, learn_vocab, tokenizer_config, tokenizer_json  # noqa: E402

MODEL_ID = "cartograph-code-search-v5"

# Texts whose token ids and vectors the unit test recomputes through transformers.js.
REFERENCE_TEXTS = [
    "Return the size of the file at the given path.",
    "storage files\ndef get_file_size(path: str) -> int\nuses stat getsize",
    "Parse an HTTP date header into a datetime.",
    "http utils\ndef parseHTTPDate(value: string): Date | undefined\nuses Date parse",
    "class XMLHttpRequestHandler extends BaseHandler",
    "utf8Decode base64_encode sha256sum __init__ v2Client",
    "Retry the request up to three times, waiting longer after each failure.",
    "net client\ndef retry(self, request, attempts=3, backoff=2.0)\nuses sleep send RetryError",
    "naïve café — unicode ünïcödé",
    "Create an :class:`~flask.ctx.AppContext` and call :py:meth:`push` on it.",
    "Subscribe with an {@link Observer} or {@linkcode next} callbacks (see `subscribe`).",
]


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="train/.data")
    p.add_argument("--out", default="models", help="writes <out>/<model id>/...")
    p.add_argument("--model-id", default=MODEL_ID)
    p.add_argument("--report", default="docs/results/train-model.json", help="JSON training report")
    p.add_argument("--limit", type=int, default=0, help="train on the first N pairs (after a seeded shuffle); 0: all")
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--min-count", type=int, default=5, help="a word becomes a vocabulary entry of its own only when seen this often")
    p.add_argument("--dim", type=int, default=384, help="384: the store's vector column (a longer vector is not persisted)")
    p.add_argument("--mixer", choices=["none", "conv"], default="none", help="conv: a residual width-3 convolution over token vectors")
    p.add_argument("--pooling", choices=["mean", "attention"], default="mean", help="attention: a learnt softmax weight per token instead of the plain mean")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch", type=int, default=16384, help="in-batch negatives: 512 -> 16384 took validation 0.506 -> 0.526 (sweep.py, docs/benchmarks.md)")
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--token-dropout", type=float, default=0.0, help="share of passage tokens dropped in training")
    p.add_argument("--max-query", type=int, default=48)
    p.add_argument("--max-passage", type=int, default=192)
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu", help="cuda: for sweeps (sweep.py); the shipped model is trained on the CPU, where reruns are bit for bit")
    p.add_argument("--hard-negatives", type=int, default=0, help="K > 0: each pair also brings one of its query's K best BM25 passages from its own package (not its own), drawn anew each epoch")
    p.add_argument("--bench", default=None, help="bench:search dev corpora (bench/search/model-dev-set.ts): flat embedding NDCG@10 reported per epoch, never used to choose")
    p.add_argument("--no-export", action="store_true")
    p.add_argument("--card-from", default=None, help="only re-render <out>/<model id>/MODEL_CARD.md from this training report")
    p.add_argument("--reference", default="test/fixtures/shipped-model-reference.json", help="JSON of fixed texts with their token ids and vectors from the exported model (the unit test's reference)")
    return p.parse_args(argv)


def read(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


class Encoder(torch.nn.Module):
    def __init__(self, vocab: int, dim: int, mixer: str, pooling: str = "mean"):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim, padding_idx=0)
        torch.nn.init.normal_(self.embed.weight, std=0.1)
        with torch.no_grad():
            self.embed.weight[0].zero_()
        self.conv = torch.nn.Conv1d(dim, dim, 3, padding=1) if mixer == "conv" else None
        if self.conv is not None:
            torch.nn.init.zeros_(self.conv.weight)
            torch.nn.init.zeros_(self.conv.bias)
        # Attention pooling: token t of a text weighs softmax_t(score . h_t) over the text's tokens. Zero at
        # the start: every token weighs the same, which is mean pooling.
        self.score = torch.nn.Linear(dim, 1, bias=False) if pooling == "attention" else None
        if self.score is not None:
            torch.nn.init.zeros_(self.score.weight)

    def mixed(self, vectors, mask):
        """Token vectors after the optional mixer, padding zeroed."""
        m = mask.unsqueeze(-1).to(vectors.dtype)
        h = vectors * m
        if self.conv is not None:
            h = h + F.gelu(self.conv(h.transpose(1, 2)).transpose(1, 2))
            h = h * m
        return h

    def tokens(self, vectors, mask):
        """Per-token output (`last_hidden_state`) from the looked-up token vectors. With attention pooling each
        vector is scaled by its softmax weight times the text's token count, so the mean over the valid tokens
        (transformers.js' `pooling: 'mean'`) is the attention-weighted sum."""
        h = self.mixed(vectors, mask)
        if self.score is None:
            return h
        m = mask.to(h.dtype)
        # Padding gets -1e4 before the softmax (weight ~0); a text of padding only gets uniform weights times
        # its count 0: zero vectors, as with mean pooling.
        s = self.score(h).squeeze(-1) * m + (m - 1) * 1e4
        weight = torch.softmax(s, dim=1) * m.sum(1, keepdim=True)
        return h * weight.unsqueeze(-1)

    def forward(self, ids, mask):
        return self.tokens(self.embed(ids), mask)

    def pooled(self, ids, mask):
        """pool(forward(ids, mask)); for the bag (mean pooling, no mixer), a sum of rows that never builds the
        batch x length x dim tensor (the mean's division does not survive the L2 normalisation)."""
        if self.conv is not None or self.score is not None:
            return pool(self(ids, mask), mask)
        return F.normalize(F.embedding_bag(ids, self.embed.weight, mode="sum", padding_idx=0), dim=-1)

    def pooled_packed(self, flat, offsets):
        """pooled() of unpadded token lists with a mixer or attention: the lists laid end to end with one [PAD]
        between them, so the width-3 convolution sees a zero vector past each end, as it sees padding; the
        attention softmax runs over each list's own tokens."""
        n, dev = len(offsets), flat.device
        lengths = torch.diff(torch.cat([offsets, torch.tensor([len(flat)], device=dev)]))
        text = torch.repeat_interleave(torch.arange(n, device=dev), lengths)
        if self.conv is None:
            h = self.embed(flat)
        else:
            # Token j of text i goes to position j + i + 1: one separator before each text.
            position = torch.arange(len(flat), device=dev) + text + 1
            ids = torch.zeros(len(flat) + n + 1, dtype=torch.long, device=dev)
            ids[position] = flat
            h = self.mixed(self.embed(ids).unsqueeze(0), (ids != 0).long().unsqueeze(0))[0][position]
        if self.score is not None:
            s = self.score(h).squeeze(-1)
            top = torch.full((n,), -1e4, device=dev).scatter_reduce(0, text, s, "amax", include_self=False)
            e = torch.exp(s - top[text])
            h = h * (e / torch.zeros(n, device=dev).index_add_(0, text, e)[text]).unsqueeze(-1)
        sums = torch.zeros(n, h.shape[1], device=dev).index_add_(0, text, h)
        return F.normalize(sums, dim=-1)

    def pooled_bags(self, flat, offsets):
        """The same for unpadded token lists (the training batches: no work on padding)."""
        return F.normalize(F.embedding_bag(flat, self.embed.weight, offsets, mode="sum"), dim=-1)


def pool(h, mask):
    m = mask.unsqueeze(-1).to(h.dtype)
    return F.normalize((h * m).sum(1) / m.sum(1).clamp(min=1), dim=-1)


def device_of(model):
    """Where a model's weights live: the trained Encoder's device; the exported QuantizedEncoder runs on the CPU."""
    return model.embed.weight.device if isinstance(model, Encoder) else torch.device("cpu")


def encode_train(model, seqs, dropout, gen):
    """Training-time text vectors; `dropout` drops that share of each text's tokens (its first kept)."""
    flat, offsets = (t.to(device_of(model)) for t in bags(seqs, dropout, gen))
    if model.conv is None and model.score is None:
        return model.pooled_bags(flat, offsets)
    return model.pooled_packed(flat, offsets)


def batch_tensors(seqs):
    width = max(1, max(len(s) for s in seqs))
    ids = torch.zeros(len(seqs), width, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s, dtype=torch.long)
    return ids, (ids != 0).long()


def bags(seqs, dropout=0.0, gen=None):
    """Token lists as one flat tensor + offsets (F.embedding_bag's unpadded form); `dropout` drops that
    share of the tokens, keeping each list's first."""
    if dropout > 0:
        out = []
        for s in seqs:
            keep = (torch.rand(len(s), generator=gen) >= dropout).tolist()
            out.append([t for j, t in enumerate(s) if keep[j] or j == 0])
        seqs = out
    lengths = torch.tensor([len(s) for s in seqs])
    offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
    return torch.tensor([t for s in seqs for t in s], dtype=torch.long), offsets


@torch.no_grad()
def embed_all(model, seqs, batch=1024):
    model.eval()
    out = []
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
    vecs = [None] * len(seqs)
    for at in range(0, len(order), batch):
        idx = order[at : at + batch]
        ids, mask = batch_tensors([seqs[i] for i in idx])
        if isinstance(model, Encoder):
            pooled = model.pooled(ids.to(device_of(model)), mask.to(device_of(model))).cpu()
        else:
            pooled = pool(model(ids, mask), mask)
        for j, i in enumerate(idx):
            vecs[i] = pooled[j]
    out = torch.stack(vecs)
    model.train()
    return out


def ranks(q, p, groups):
    """1-based rank of passage i for query i among the passages of its group (None: all)."""
    result = []
    if groups is None:
        scores = q @ p.T
        own = scores.diagonal().unsqueeze(1)
        return ((scores > own).sum(1) + 1).tolist()
    by_group = {}
    for i, g in enumerate(groups):
        by_group.setdefault(g, []).append(i)
    result = [0] * len(groups)
    for members in by_group.values():
        idx = torch.tensor(members, device=q.device)
        scores = q[idx] @ p[idx].T
        own = scores.diagonal().unsqueeze(1)
        for i, r in zip(members, ((scores > own).sum(1) + 1).tolist()):
            result[i] = r
    return result


def metrics(rank_list):
    n = len(rank_list)
    return {
        "recall@1": sum(r == 1 for r in rank_list) / n,
        "recall@10": sum(r <= 10 for r in rank_list) / n,
        "mrr@10": sum(1 / r for r in rank_list if r <= 10) / n,
        "ndcg@10": sum(1 / math.log2(r + 1) for r in rank_list if r <= 10) / n,
    }


def evaluate(model, val):
    # Ranked where the model runs: the all-validation score matrix is 26k x 26k.
    q = embed_all(model, val["queries"]).to(device_of(model))
    p = embed_all(model, val["passages"]).to(device_of(model))
    return {"perPackage": metrics(ranks(q, p, val["packages"])), "allValidation": metrics(ranks(q, p, None))}


def bm25_ranks(val, k1=1.2, b=0.75):
    """BM25 over the same tokens, each query against its own package's passages: the lexical baseline
    the model has to beat on validation."""
    by_group = {}
    for i, g in enumerate(val["packages"]):
        by_group.setdefault(g, []).append(i)
    result = [0] * len(val["packages"])
    for members in by_group.values():
        docs = [val["passages"][i] for i in members]
        n = len(docs)
        avg = sum(map(len, docs)) / max(1, n)
        df = {}
        for d in docs:
            for t in set(d):
                df[t] = df.get(t, 0) + 1
        tfs = []
        for d in docs:
            tf = {}
            for t in d:
                tf[t] = tf.get(t, 0) + 1
            tfs.append(tf)
        for qi, i in enumerate(members):
            scores = []
            for d, tf in zip(docs, tfs):
                score = 0.0
                for t in set(val["queries"][i]):
                    if t in tf:
                        idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                        score += idf * tf[t] * (k1 + 1) / (tf[t] + k1 * (1 - b + b * len(d) / avg))
                scores.append(score)
            own = scores[qi]
            result[i] = 1 + sum(1 for sc in scores if sc > own)
    return result


def bm25_hard_negatives(queries, passages, packages, k, k1=1.2, b=0.75, chunk=512):
    """Per pair, the indices of the k passages of its own package that BM25 ranks highest for its query,
    leaving out its own passage and any pair with the same passage or the same query (duplicates
    that are not negatives). Sparse BM25 weights times binary query vectors, one package at a time."""
    by_package = {}
    for i, g in enumerate(packages):
        by_package.setdefault(g, []).append(i)
    result = [[] for _ in queries]
    for members in by_package.values():
        if len(members) < 2:
            continue
        local = {}
        rows, cols, vals = [], [], []
        lengths = [len(passages[i]) for i in members]
        avg = sum(lengths) / len(lengths)
        df = {}
        for i in members:
            for t in set(passages[i]):
                df[t] = df.get(t, 0) + 1
        n = len(members)
        for r, i in enumerate(members):
            tf = {}
            for t in passages[i]:
                tf[t] = tf.get(t, 0) + 1
            for t, f in tf.items():
                c = local.setdefault(t, len(local))
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                rows.append(r)
                cols.append(c)
                vals.append(idf * f * (k1 + 1) / (f + k1 * (1 - b + b * lengths[r] / avg)))
        weights = torch.sparse_coo_tensor([rows, cols], vals, (n, len(local))).coalesce()
        for at in range(0, n, chunk):
            part = members[at : at + chunk]
            q = torch.zeros(len(part), len(local))
            for r, i in enumerate(part):
                for t in set(queries[i]):
                    if t in local:
                        q[r, local[t]] = 1.0
            scores = torch.sparse.mm(weights, q.T).T  # part x n
            top = torch.topk(scores, min(n, k + 8), dim=1).indices.tolist()
            for r, i in enumerate(part):
                picked = []
                for j in top[r]:
                    other = members[j]
                    if other != i and passages[other] != passages[i] and queries[other] != queries[i]:
                        picked.append(other)
                    if len(picked) == k:
                        break
                result[i] = picked
    return result


def quantize_rows(weight):
    """int8 per row, symmetric: row * scale ~ weight."""
    scale = weight.abs().amax(1).clamp(min=1e-8) / 127
    q = torch.round(weight / scale.unsqueeze(1)).clamp(-127, 127).to(torch.int8)
    return q, scale


class QuantizedEncoder(torch.nn.Module):
    """What the ONNX file computes: an int8 row lookup times its scale, then the same token mixer."""

    def __init__(self, model: Encoder):
        super().__init__()
        q, scale = quantize_rows(model.embed.weight.detach())
        self.register_buffer("rows", q)
        self.register_buffer("scale", scale)
        self.inner = model

    def forward(self, input_ids, attention_mask):
        vectors = self.rows[input_ids].to(torch.float32) * self.scale[input_ids].unsqueeze(-1)
        return self.inner.tokens(vectors, attention_mask)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def export(model, vocab, args, out_dir):
    os.makedirs(os.path.join(out_dir, "onnx"), exist_ok=True)
    with open(os.path.join(out_dir, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(vocab), f, ensure_ascii=False, separators=(",", ":"))
    with open(os.path.join(out_dir, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_config(args.max_passage), f, indent=1)
    # model_type bert: transformers.js' AutoModel picks an encoder-only model that feeds the session the
    # inputs it declares and returns `last_hidden_state`.
    config = {
        "model_type": "bert",
        "architectures": ["CartographCodeSearch"],
        "hidden_size": args.dim,
        "vocab_size": len(vocab),
        "max_position_embeddings": args.max_passage,
        "cartograph": {"mixer": args.mixer, "pooling": args.pooling, "normalize": True, "weights": "int8 per-row token vectors"},
    }
    with open(os.path.join(out_dir, "config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=1)
    qmodel = QuantizedEncoder(model).eval()
    ids = torch.tensor([[5, 6, 7, 0], [8, 9, 0, 0]])
    mask = (ids != 0).long()
    torch.onnx.export(
        qmodel,
        (ids, mask),
        os.path.join(out_dir, "onnx", "model_quantized.onnx"),
        input_names=["input_ids", "attention_mask"],
        output_names=["last_hidden_state"],
        dynamic_axes={"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"}, "last_hidden_state": {0: "batch", 1: "sequence"}},
        opset_version=13,
        do_constant_folding=True,
    )
    files = {}
    for rel in ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model_quantized.onnx"]:
        full = os.path.join(out_dir, rel)
        files[rel] = {"bytes": os.path.getsize(full), "sha256": sha256(full)}
    return qmodel, files


@torch.no_grad()
def write_reference(qmodel, tok, args, path):
    ids = [tok.encode(t, args.max_passage) for t in REFERENCE_TEXTS]
    vectors = [pool(qmodel(*batch_tensors([s])), batch_tensors([s])[1])[0].tolist() for s in ids]
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"modelId": args.model_id, "texts": REFERENCE_TEXTS, "ids": ids, "vectors": vectors}, f)


def write_card(report, args, out_dir):
    """MODEL_CARD.md from the template and a run's report (`--card-from REPORT` re-renders it alone)."""
    with open(os.path.join(os.path.dirname(__file__), "MODEL_CARD.template.md"), encoding="utf-8") as f:
        card = f.read()
    bench = lambda e: f" {e['benchFlat']['all']:.3f} |" if "benchFlat" in e else " – |"  # noqa: E731
    rows = "\n".join(
        f"| {e['epoch']} | {e['trainLoss']:.3f} | {e['perPackage']['ndcg@10']:.3f} | {e['perPackage']['recall@1']:.3f} | {e['perPackage']['mrr@10']:.3f} | {e['allValidation']['ndcg@10']:.3f} |{bench(e)}"
        for e in report["epochs"]
    )
    files = "\n".join(f"| `{name}` | {f['bytes']:,} | `{f['sha256']}` |" for name, f in sorted(report["exported"]["files"].items()))
    best = next(e for e in report["epochs"] if e["epoch"] == report["bestEpoch"])
    values = {
        "MODEL_ID": args.model_id,
        "VOCAB": f"{report['vocab']:,}",
        "DIM": str(args.dim),
        "MIXER": ", mixed with its neighbours by one residual width-3 convolution" if args.mixer == "conv" else "",
        "POOLING": (
            "the sum of its token vectors weighted by a softmax over the text's tokens of a learnt score (one learnt vector dotted with each token vector: attention pooling, so that informative tokens dominate)"
            if getattr(args, "pooling", "mean") == "attention"
            else "the mean of its token vectors"
        ),
        "POOLING_EXPORT": " (each token vector already multiplied by its softmax weight and by the text's token count, so the mean over the attention mask is the weighted sum)" if getattr(args, "pooling", "mean") == "attention" else "",
        "TRAIN_PAIRS": f"{report['trainPairs']:,}",
        "VAL_PAIRS": f"{report['validationPairs']:,}",
        "SOURCES": report.get("sources", "the sources in train/manifest.json"),
        "BATCH": str(args.batch),
        "LR": str(args.lr),
        "EPOCHS": str(args.epochs),
        "DROPOUT": str(args.token_dropout),
        "SEED": str(args.seed),
        "TORCH": torch.__version__,
        "THREADS": str(args.threads),
        "BEST_EPOCH": str(report["bestEpoch"]),
        "TRAIN_SECONDS": f"{report['totalSeconds']:.0f}",
        "EPOCH_ROWS": rows,
        "INT8_NDCG": f"{report['exported']['int8Validation']['perPackage']['ndcg@10']:.3f}",
        "FP32_NDCG": f"{best['perPackage']['ndcg@10']:.3f}",
        "FILE_ROWS": files,
        "MIN_COUNT": str(args.min_count),
        "BM25_NDCG": f"{report['bm25Validation']['perPackage']['ndcg@10']:.3f}",
    }
    for key, value in values.items():
        card = card.replace("{{" + key + "}}", value)
    with open(os.path.join(out_dir, "MODEL_CARD.md"), "w", encoding="utf-8") as f:
        f.write(card)


def prepare(args):
    """Reads the pairs, learns the vocabulary and tokenizes everything: what every training run of the same data
    and vocabulary shares (sweep.py caches it)."""
    started = time.time()
    train = read(os.path.join(args.data, "train.jsonl.gz"))
    validation = read(os.path.join(args.data, "validation.jsonl.gz"))
    random.Random(args.seed).shuffle(train)
    if args.limit:
        train = train[: args.limit]
    train_q = [r["query"] for r in train]
    train_p = [passage(r) for r in train]
    vocab = learn_vocab(train_q + train_p, args.vocab, args.min_count)
    tok = WordPiece(vocab)
    tp = [tok.encode(t, args.max_passage) for t in train_p]
    data = {
        "vocab": vocab,
        "tq": [tok.encode(t, args.max_query) for t in train_q],
        "tp": tp,
        "trainPackages": [r["package"] for r in train],
        "val": {
            "queries": [tok.encode(r["query"], args.max_query) for r in validation],
            "passages": [tok.encode(passage(r), args.max_passage) for r in validation],
            "packages": [r["package"] for r in validation],
        },
        "unk": sum(s.count(tok.unk) for s in tp) / max(1, sum(len(s) for s in tp)),
        "bench": bench_eval.load(args.bench, tok, args.max_query, args.max_passage) if args.bench else None,
    }
    data["bm25Validation"] = {"perPackage": metrics(bm25_ranks(data["val"]))}
    data["prepSeconds"] = time.time() - started
    return data


def fit(args, data, initial=True):
    """Trains one model on prepared data; returns it at its best epoch by validation NDCG@10, with the report
    (`initial`: with the untrained model's validation figures)."""
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    vocab, tq, tp, val, bench = data["vocab"], data["tq"], data["tp"], data["val"], data["bench"]
    hard = None
    if args.hard_negatives:
        t_mine = time.time()
        hard = bm25_hard_negatives(tq, tp, data["trainPackages"], args.hard_negatives)
        print(f"BM25 hard negatives: {sum(1 for h in hard if h)} of {len(hard)} pairs have some; {time.time() - t_mine:.0f}s", flush=True)
    print(f"{len(tq)} train pairs, {len(val['queries'])} validation; vocab {len(vocab)}; passage tokens mean {sum(map(len, tp)) / len(tp):.1f}, [UNK] share {data['unk']:.4f}; prep {data['prepSeconds']:.0f}s", flush=True)

    model = Encoder(len(vocab), args.dim, args.mixer, args.pooling).to(device)
    logit_scale = torch.nn.Parameter(torch.tensor(math.log(20.0), device=device))
    optim = torch.optim.Adam(list(model.parameters()) + [logit_scale], lr=args.lr)
    steps_per_epoch = len(tq) // args.batch
    total = steps_per_epoch * args.epochs
    sched = torch.optim.lr_scheduler.LambdaLR(optim, lambda s: min(1.0, (s + 1) / 50) * max(0.05, 1 - s / max(1, total)))
    gen = torch.Generator().manual_seed(args.seed)
    sources = len(set(data["trainPackages"]))
    report = {"modelId": args.model_id, "sources": f"{sources} training packages", "args": vars(args), "trainPairs": len(tq), "validationPairs": len(val["queries"]), "vocab": len(vocab), "unkShare": data["unk"], "epochs": [], "loss": []}
    report["bm25Validation"] = data["bm25Validation"]
    print(f"BM25 (same tokens) val per-package NDCG@10 {report['bm25Validation']['perPackage']['ndcg@10']:.3f}", flush=True)
    if initial:
        report["initial"] = evaluate(model, val)
        print(f"epoch 0 (untrained) val per-package NDCG@10 {report['initial']['perPackage']['ndcg@10']:.3f}", flush=True)
    best = (-1.0, None, 0)
    step = 0
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        order = torch.randperm(len(tq), generator=gen).tolist()
        losses = []
        for b in range(steps_per_epoch):
            idx = order[b * args.batch : (b + 1) * args.batch]
            p_lists = [tp[i] for i in idx]
            if hard is not None:
                # One of the query's hard negatives, drawn anew each epoch; they join the batch's passages.
                p_lists += [tp[hard[i][int(torch.randint(len(hard[i]), (1,), generator=gen))]] for i in idx if hard[i]]
            qv = encode_train(model, [tq[i] for i in idx], 0.0, gen)
            pv = encode_train(model, p_lists, args.token_dropout, gen)
            logits = logit_scale.exp().clamp(max=100) * qv @ pv.T
            target = torch.arange(len(idx), device=device)
            # Query -> every passage of the batch (hard negatives included); passage -> every query.
            loss = (F.cross_entropy(logits, target) + F.cross_entropy(logits[:, : len(idx)].T, target)) / 2
            optim.zero_grad()
            loss.backward()
            optim.step()
            sched.step()
            with torch.no_grad():
                model.embed.weight[0].zero_()
            losses.append(loss.item())
            step += 1
            if step % 20 == 0:
                report["loss"].append({"step": step, "epoch": epoch, "loss": sum(losses[-20:]) / len(losses[-20:])})
        ev = evaluate(model, val)
        if bench is not None:
            ev["benchFlat"] = bench_eval.evaluate(lambda seqs: embed_all(model, seqs), bench)
            print(f"  bench:search flat embedding NDCG@10 {json.dumps({k: round(v, 3) for k, v in ev['benchFlat'].items()})}", flush=True)
        entry = {"epoch": epoch, "trainLoss": sum(losses) / max(1, len(losses)), "seconds": time.time() - t0, "temperature": 1 / logit_scale.exp().item(), **ev}
        report["epochs"].append(entry)
        pp, av = ev["perPackage"], ev["allValidation"]
        print(f"epoch {epoch}: loss {entry['trainLoss']:.3f}, {entry['seconds']:.0f}s; val per-package NDCG@10 {pp['ndcg@10']:.3f} R@1 {pp['recall@1']:.3f} MRR {pp['mrr@10']:.3f}; all-validation NDCG@10 {av['ndcg@10']:.3f}", flush=True)
        if pp["ndcg@10"] > best[0]:
            best = (pp["ndcg@10"], {k: v.clone() for k, v in model.state_dict().items()}, epoch)
    model.load_state_dict(best[1])
    report["bestEpoch"] = best[2]
    return model.cpu(), report


# Debian's PyTorch multiplies through whatever libblas.so.3 the system has. The reference BLAS runs
# ~17x slower than OpenBLAS (train/README.md), which puts v5's recipe hours past its 90-minute budget.
SLOW_BLAS_GFLOPS = 8


def blas_gflops():
    """GFLOP/s of a 1024x384 by 384x1024 product, timed for 0.3 s (its own generator: training's seeds are untouched)."""
    gen = torch.Generator().manual_seed(0)
    a, b = torch.randn(1024, 384, generator=gen), torch.randn(384, 1024, generator=gen)
    a @ b
    start, n = time.perf_counter(), 0
    while time.perf_counter() - start < 0.3:
        a @ b
        n += 1
    return 2 * 1024 * 384 * 1024 * n / (time.perf_counter() - start) / 1e9


def main():
    args = parse_args()
    if args.card_from:
        with open(args.card_from, encoding="utf-8") as f:
            report = json.load(f)
        write_card(report, argparse.Namespace(**report["args"]), os.path.join(args.out, args.model_id))
        return
    started = time.time()
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    # Bit-for-bit reruns on the CPU; CUDA's embedding-bag backward has no deterministic kernel (sweeps only).
    torch.use_deterministic_algorithms(args.device == "cpu")
    gflops = blas_gflops() if args.device == "cpu" else None
    if gflops is not None and gflops < SLOW_BLAS_GFLOPS:
        print(f"warning: matrix products run at {gflops:.1f} GFLOP/s on {args.threads} threads, the reference BLAS's speed "
              f"(OpenBLAS: ~60 on 2 cores). Training will take many times its budget: apt-get install libopenblas0-openmp "
              f"(train/README.md)", file=sys.stderr, flush=True)
    data = prepare(args)
    model, report = fit(args, data)
    report["blasGflops"] = gflops
    report["trainSeconds"] = time.time() - started
    val, tok = data["val"], WordPiece(data["vocab"])
    if not args.no_export:
        out_dir = os.path.join(args.out, args.model_id)
        qmodel, files = export(model, data["vocab"], args, out_dir)
        # The exported (int8) model on the same validation set: what quantization costs.
        report["exported"] = {"dir": out_dir, "files": files, "int8Validation": evaluate(qmodel, val)}
        print(f"exported {out_dir}: {json.dumps(files)}", flush=True)
        if args.reference:
            write_reference(qmodel, tok, args, args.reference)
        print(f"int8 val per-package NDCG@10 {report['exported']['int8Validation']['perPackage']['ndcg@10']:.3f}", flush=True)
    report["totalSeconds"] = time.time() - started
    if not args.no_export:
        write_card(report, args, os.path.join(args.out, args.model_id))
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    print(f"done in {report['totalSeconds']:.0f}s (best epoch {report['bestEpoch']})", flush=True)


if __name__ == "__main__":
    main()
