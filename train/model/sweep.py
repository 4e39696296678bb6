"""Runs several training recipes on one prepared data set, to compare them at full scale on a GPU.

    /usr/bin/python3 train/model/sweep.py prepare CACHE -- [train.py options that shape the data]
    python3 train/model/sweep.py run CACHE --device cuda --json FILE -- "--epochs 6" "--batch 2048 --lr 0.006" ...

`prepare` reads the pairs, learns the vocabulary and tokenizes once (a minute of pure Python) and
writes CACHE (gzipped pickle). `run` trains one model per quoted set of train.py options on that cache,
without exporting, and writes each recipe's per-epoch validation and flat bench:search figures to FILE as
soon as it ends (a run stopped at a time limit keeps what finished). A recipe that wins here is then
trained by train.py on the CPU, where reruns are bit for bit: a sweep only chooses.
"""

import argparse
import gzip
import json
import os
import pickle
import shlex
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(__file__))
import train  # noqa: E402

# Options that change the prepared data: a recipe may not differ from the cache in these.
DATA_OPTIONS = ["data", "limit", "vocab", "min_count", "max_query", "max_passage", "seed", "bench"]


def prepare(cache, rest):
    args = train.parse_args(rest)
    data = train.prepare(args)
    data["options"] = {k: getattr(args, k) for k in DATA_OPTIONS}
    data["argv"] = rest
    with gzip.open(cache, "wb", compresslevel=6) as f:
        pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL)
    print(f"{cache}: {len(data['tq'])} pairs, vocab {len(data['vocab'])}, {os.path.getsize(cache):,} bytes, prep {data['prepSeconds']:.0f}s")


def summary(recipe, report, seconds):
    return {
        "recipe": recipe,
        "seconds": round(seconds, 1),
        "bestEpoch": report["bestEpoch"],
        "epochs": [
            {
                "epoch": e["epoch"],
                "trainLoss": round(e["trainLoss"], 4),
                "valNdcg10": round(e["perPackage"]["ndcg@10"], 4),
                "allValNdcg10": round(e["allValidation"]["ndcg@10"], 4),
                "benchFlat": {k: round(v, 4) for k, v in e.get("benchFlat", {}).items()},
                "seconds": round(e["seconds"], 1),
            }
            for e in report["epochs"]
        ],
    }


def run(cache, device, out, recipes):
    with gzip.open(cache, "rb") as f:
        data = pickle.load(f)
    torch.use_deterministic_algorithms(device == "cpu")
    rows = []
    for recipe in recipes:
        # The cache's own options first: a recipe names only what it changes.
        args = train.parse_args(data["argv"] + shlex.split(recipe) + ["--device", device, "--no-export"])
        # The seed shapes the data only through --limit's shuffle; on all pairs a recipe may change it.
        shaping = [k for k in DATA_OPTIONS if k != "seed" or args.limit]
        wrong = {k: getattr(args, k) for k in shaping if getattr(args, k) != data["options"][k]}
        if wrong:
            sys.exit(f"recipe {recipe!r} differs from the cache in {wrong}: prepare another cache")
        print(f"== {recipe or '(defaults)'}", flush=True)
        started = time.time()
        _, report = train.fit(args, data, initial=False)
        rows.append(summary(recipe, report, time.time() - started))
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"device": torch.cuda.get_device_name() if device == "cuda" else "cpu", "torch": torch.__version__, "recipes": rows}, f, indent=1)
    print(f"\n| recipe | best epoch | val NDCG@10 | all-val | flat bench | s |\n|---|---:|---:|---:|---:|---:|")
    for r in rows:
        e = r["epochs"][r["bestEpoch"] - 1]
        print(f"| {r['recipe'] or '(defaults)'} | {r['bestEpoch']} | {e['valNdcg10']:.3f} | {e['allValNdcg10']:.3f} | {e['benchFlat'].get('all', float('nan')):.3f} | {r['seconds']:.0f} |")


def main():
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser()
    p.add_argument("verb", choices=["prepare", "run"])
    p.add_argument("cache")
    p.add_argument("--device", default="cpu")
    p.add_argument("--json", default="sweep.json")
    a = p.parse_args(argv[:cut])
    # After `--`: prepare's train.py options, or run's recipes (one quoted set of train.py options each).
    rest = argv[cut + 1 :]
    if a.verb == "prepare":
        prepare(a.cache, rest)
    else:
        run(a.cache, a.device, a.json, rest)


if __name__ == "__main__":
    main()
