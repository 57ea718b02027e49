#!/usr/bin/python3
"""Learning curves of the GNN placer: quality against training examples and training steps.

  learning_curve.py --hulk build/hulk --data DATA --labelled L --out DIR --sizes 0,1000,4000 --validation-seed S

DATA is an evaluator-labelled data set (`hulk gnn gen-data --label evaluator`, resumable and sharded as sweep: see
tools/cluster/gen-data.sbatch); its first L samples (DIR/data-L, symlinks) are the search labels and the validation
split. For each size N, N more scenarios sampled in memory (`hulk gnn train --synthetic N`: no search, no SimGrid; their
targets are the model's own best decodes where the evaluator finds them faster than greedy's) train a model with
`--validation-candidates 1` (the epoch whose argmax decode, the model's own answer, is best on the validation split
is kept), then `hulk gnn families` measures it on the validation seed (every time SimGrid's). A finished step (its
model, its families table) is not rerun: the script resumes.

Writes, in DIR:
  learning_curve.csv   size,examples,rl_estimates,family,variant,vs_greedy,worst  (examples: the training split,
                       labelled and synthetic; rl_estimates: evaluator calls of the policy-gradient term; one line per row of the
                       gnn-families tables: gnn, untrained, model-only, model-only-untrained, equal-budget)
  training_steps.csv   size,epoch,steps,samples_seen,val_gap  (the per-epoch log of each training run; val_gap is
                       the argmax decode's estimated time over the label's, minus 1, on the validation split)
  learning_curve.png/.svg (with matplotlib), commands.txt (every command run, in order)
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys

ROWS = ("gnn", "untrained", "model-only", "model-only-untrained", "equal-budget")


def run(cmd, log, stdout_path=None, stderr_path=None):
    """Runs cmd (a list), recording it in log; stops the script on failure with the command's exit code."""
    log.write(" ".join(cmd) + "\n")
    log.flush()
    with open(stdout_path or os.devnull, "w") as out, open(stderr_path or os.devnull, "w") as err:
        rc = subprocess.call(cmd, stdout=out, stderr=err)
    if rc != 0:
        print(f"learning_curve.py: error: '{' '.join(cmd)}' exited {rc} (see {stderr_path})", file=sys.stderr)
        sys.exit(rc)


def subset(data, n, out_dir):
    """DIR/data-N: the manifest with count N and links to the first N samples (or their skip markers)."""
    with open(os.path.join(data, "manifest.json")) as f:
        manifest = json.load(f)
    if manifest["count"] < n:
        print(f"learning_curve.py: error: {data} holds {manifest['count']} samples, fewer than {n}", file=sys.stderr)
        sys.exit(2)
    d = os.path.join(out_dir, f"data-{n}")
    os.makedirs(os.path.join(d, "samples"), exist_ok=True)
    manifest["count"] = n
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    src = os.path.abspath(os.path.join(data, "samples"))
    for name in os.listdir(src):
        stem = name.split(".")[0]
        if stem.isdigit() and int(stem) < n and not os.path.exists(os.path.join(d, "samples", name)):
            os.symlink(os.path.join(src, name), os.path.join(d, "samples", name))
    return d


def family_rows(table_path):
    """(family, variant, vs_greedy, worst) of the rows gnn-families printed."""
    family, out = None, []
    with open(table_path) as f:
        for line in f:
            m = re.match(r"^(\S+): \d+ scenarios;", line)
            if m:
                family = m.group(1)
                continue
            m = re.match(r"^  (\S+)\s+([\d.]+)x\s+([\d.]+)x", line)
            if m and family and m.group(1) in ROWS:
                out.append((family, m.group(1), float(m.group(2)), float(m.group(3))))
    return out


def epochs_of(train_log):
    """(epoch, val_gap) per epoch line of a `hulk gnn train` log, and the number of training samples."""
    rows, train_samples = [], 0
    with open(train_log) as f:
        for line in f:
            m = re.match(r"^epoch (\d+)/\d+ .* val_gap (-?[\d.]+|nan)%", line)
            if m:
                rows.append((int(m.group(1)), float(m.group(2)) / 100))
            m = re.match(r"^train: (\d+) training", line)
            if m:
                train_samples = int(m.group(1))
    return rows, train_samples


def plot(curve, steps, out_dir):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("learning_curve.py: matplotlib missing (run with /usr/bin/python3): CSVs only", file=sys.stderr)
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    for family in sorted({r[3] for r in curve}):
        for variant, style in (("model-only", "o-"), ("gnn", "s--"), ("model-only-untrained", "x:")):
            pts = sorted((r[1], r[5]) for r in curve if r[3] == family and r[4] == variant)
            if pts:
                a.plot([p[0] for p in pts], [p[1] for p in pts], style, label=f"{family} {variant}")
    a.axhline(1.0, color="grey", lw=0.8)
    a.set_xscale("log")
    a.set_xlabel("training examples (search-labelled + synthetic)")
    a.set_ylabel("SimGrid speed vs greedy (geomean)")
    a.legend(fontsize=7)
    for size in sorted({r[0] for r in steps}):
        pts = [(r[3], r[4]) for r in steps if r[0] == size]
        b.plot([p[0] for p in pts], [p[1] for p in pts], "-", label=f"+{size} synthetic")
    b.axhline(0.0, color="grey", lw=0.8)
    b.set_xlabel("training samples seen (epochs x training split)")
    b.set_ylabel("validation gap of the argmax decode to the label (evaluator)")
    b.legend(fontsize=7)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out_dir, f"learning_curve.{ext}"), bbox_inches="tight", dpi=120)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hulk", required=True)
    p.add_argument("--data", required=True, help="evaluator-labelled data set (hulk gnn gen-data --label evaluator)")
    p.add_argument("--out", required=True)
    p.add_argument("--sizes", required=True, help="comma-separated counts of synthetic scenarios, one model each")
    p.add_argument("--validation-seed", required=True, type=int)
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--seed", type=int, default=1, help="training seed")
    p.add_argument("--reinforce", type=int, default=8, help="hulk gnn train --reinforce (0 = imitation only)")
    p.add_argument("--labelled", required=True, type=int, help="search-labelled samples taken from DATA")
    p.add_argument("--max-gpus", type=int, default=64, help="hulk gnn train --synthetic-max-gpus")
    p.add_argument("--families", default="in-family,larger")
    p.add_argument("--count", type=int, default=8, help="gnn-families --count")
    p.add_argument("--search-budget", type=int, default=0, help="gnn-families --budget (0 = the search's own)")
    a = p.parse_args()
    sizes = [int(x) for x in a.sizes.split(",")]
    os.makedirs(a.out, exist_ok=True)
    curve, steps = [], []
    with open(os.path.join(a.out, "commands.txt"), "a") as log:
        d = subset(a.data, a.labelled, a.out)
        for n in sizes:
            model = os.path.join(a.out, f"model-{n}.pt")
            train_log = os.path.join(a.out, f"train-{n}.log")
            if not os.path.exists(model):
                run([a.hulk, "gnn", "train", "--data", d, "--out", model, "--epochs", str(a.epochs), "--seed", str(a.seed),
                     "--reinforce", str(a.reinforce), "--validation-candidates", "1", "--synthetic", str(n),
                     "--synthetic-max-gpus", str(a.max_gpus)], log, stderr_path=train_log)
            table = os.path.join(a.out, f"families-{n}.txt")
            if not os.path.exists(table):
                run([a.hulk, "gnn", "families", "--model", model, "--families", a.families, "--count", str(a.count),
                     "--seed", str(a.validation_seed), "--budget", str(a.search_budget), "--out",
                     os.path.join(a.out, f"families-{n}.csv")], log, stdout_path=table + ".part",
                    stderr_path=os.path.join(a.out, f"families-{n}.log"))
                os.replace(table + ".part", table)
            epochs, train_samples = epochs_of(train_log)
            rl = train_samples * a.epochs * a.reinforce
            for family, variant, vs, worst in family_rows(table):
                curve.append((n, train_samples, rl, family, variant, vs, worst))
            for epoch, gap in epochs:
                steps.append((n, epoch, epoch * -(-train_samples // 8), epoch * train_samples, gap))
    with open(os.path.join(a.out, "learning_curve.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["size", "examples", "rl_estimates", "family", "variant", "vs_greedy", "worst"])
        w.writerows(curve)
    with open(os.path.join(a.out, "training_steps.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["size", "epoch", "steps", "samples_seen", "val_gap"])
        w.writerows(steps)
    plot(curve, steps, a.out)


if __name__ == "__main__":
    main()
