#!/usr/bin/python3
"""Plots for hulk outputs (matplotlib from Debian's python3-matplotlib).

  plot.py sweep SWEEP.csv --out DIR [--x KEY]   one figure per swept key (sweep_KEY.png): time per iteration, and
                                                the speedups over the references that ran, MFU and compute time
                                                share, against the key (other keys as series)
  plot.py compare COMPARE.json --out DIR        bar chart of iteration time per method
  plot.py reproduce REPRODUCE.json --out DIR    bar chart of speedups vs round-robin per scenario and method,
                                                and one placement picture per scenario (regions, GPUs by stage)
  plot.py scale SCALE.csv --out DIR             simulation wall time, peak memory and messages against GPUs
                                                (the CSV of `hulk bench --simulation-only --csv`)
  plot.py learning-curve CURVE.csv --out DIR    the move scorer's learning curve (docs/data/move_learning_curve.csv):
                                                the validation top-ranked move's time change, and each family's
                                                variants against greedy, against the training examples
  plot.py iterations RUN_DIR --out DIR          per-iteration times of a run with events (its iterations.csv),
                                                attempts after host failures in their own colour, redone
                                                iterations hollow, each restart a dashed line
Each figure is written as PNG and SVG.
Run it with /usr/bin/python3 (or as tools/scripts/plot.py): tools/scripts/install-deps.sh installs matplotlib for Debian's python3,
and a python3 earlier on PATH (pyenv, a venv, conda) usually lacks it.
"""
import argparse
import csv
import json
import os
import re
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: E402
except ImportError as e:
    # One line naming the fix, exit 2 (bad environment, as bad input), rather than a traceback.
    print(f"plot.py: error: matplotlib cannot be imported by {sys.executable} ({e}); run /usr/bin/python3 "
          "tools/scripts/plot.py ... (tools/scripts/install-deps.sh installs python3-matplotlib for it), or pip install matplotlib",
          file=sys.stderr)
    sys.exit(2)


def save(fig, out_dir, name):
    os.makedirs(out_dir, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(out_dir, f"{name}.{ext}"), bbox_inches="tight", dpi=120)
    plt.close(fig)
    print(f"plot: wrote {os.path.join(out_dir, name)}.png/.svg", file=sys.stderr)


def value_key(text):
    """Sort numerically where a value has a number ("100Mbps" < "1Gbps" by SI prefix)."""
    m = re.match(r"^\s*([0-9.eE+-]+)\s*([a-zA-Z]*)", text)
    if not m:
        return (1, text)
    scale = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "m": 1e-3, "u": 1e-6, "n": 1e-9}
    unit = m.group(2)
    factor = scale.get(unit[:1], 1.0) if len(unit) > 1 or unit in ("ms", "us", "ns") else 1.0
    try:
        return (0, float(m.group(1)) * factor)
    except ValueError:
        return (1, text)


# The scenario's units (scenarios/README.md, "Units"), each kind plotted in one unit: (kind, unit -> factor to the
# plotted unit). Bandwidths in bits (b) and bytes (B) are told apart by case, as the scenario does.
PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15,
          "Ki": 2.0 ** 10, "Mi": 2.0 ** 20, "Gi": 2.0 ** 30, "Ti": 2.0 ** 40}
UNIT_KINDS = (
    ("Gbit/s", {p + "bps": f / 1e9 for p, f in PREFIX.items()} |
     {p + s: 8 * f / 1e9 for p, f in PREFIX.items() for s in ("Bps", "B/s")}),
    ("ms", {"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1.0, "s": 1e3, "min": 6e4}),
    ("GB", {p + "B": f / 1e9 for p, f in PREFIX.items()}),
    ("TFLOP/s", {p + s: f / 1e12 for p, f in PREFIX.items() for s in ("f", "FLOPS", "flops", "F", "flop/s")}),
)


def numeric_axis(values):
    """(numbers, unit) when every value is a number with a unit of one kind ("" for plain numbers), else None."""
    kinds = set()
    numbers = []
    for v in values:
        m = re.fullmatch(r"\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)\s*([A-Za-zµ/]*)\s*", v)
        if not m:
            return None
        try:
            x = float(m.group(1))
        except ValueError:
            return None
        unit = m.group(2)
        if unit == "":
            kinds.add("")
            numbers.append(x)
            continue
        for kind, factors in UNIT_KINDS:
            if unit in factors:
                kinds.add(kind)
                numbers.append(x * factors[unit])
                break
        else:
            return None
    return (numbers, kinds.pop()) if len(kinds) == 1 else None


def sweep_columns(path):
    """The CSV's rows that succeeded and its value columns (between "point" and "method": one per swept key, or per
    leaf of a swept map)."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames or []
        rows = [r for r in reader if r.get("ok") == "1"]
    if "method" not in header or "iteration_time_s" not in header:
        sys.exit(f"plot: {path} is not a hulk sweep CSV (no method and iteration_time_s columns)")
    return rows, header[1:header.index("method")]


# The panels of a sweep figure: (CSV column, y label, scale, reference method drawn as the line at 1).
SWEEP_PANELS = (
    ("iteration_time_s", "time per iteration (s, SimGrid)", 1.0, None),
    ("speedup_vs_greedy", "speedup vs greedy (x: greedy's time / the method's)", 1.0, "greedy"),
    ("speedup_vs_round_robin", "speedup vs round-robin (x: round-robin's time / the method's)", 1.0, "round-robin"),
    ("mfu", "MFU (% of the GPUs' peak FLOP/s)", 100.0, None),
    ("compute_time_share", "compute time share (% of the wall time)", 100.0, None),
    ("compute_utilisation", "compute time share (% of the wall time)", 100.0, None),
)


def plot_sweep(path, out_dir, x_only):
    """One figure per swept key: time per iteration and each figure the CSV holds (speedups over the references that
    ran, MFU, compute share) against the key, one line per method and value of the other swept keys."""
    rows, value_columns = sweep_columns(path)
    if not rows:
        sys.exit("plot: no successful rows in " + path)
    swept = [c for c in value_columns if len({r[c] for r in rows}) > 1] or value_columns
    if x_only:
        if x_only not in value_columns:
            sys.exit(f"plot: --x {x_only} is not a swept column of {path} (expected one of {', '.join(value_columns)})")
        swept = [x_only]
    panels = [p for p in SWEEP_PANELS if any(r.get(p[0]) for r in rows)]
    for x_key in swept:
        plot_sweep_key(rows, x_key, [c for c in swept if c != x_key], panels, out_dir)


def plot_sweep_key(rows, x_key, others, panels, out_dir):
    values = sorted({r[x_key] for r in rows}, key=value_key)
    numeric = numeric_axis(values)
    position = dict(zip(values, numeric[0] if numeric else range(len(values))))
    cols = min(2, len(panels))
    rows_of_panels = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows_of_panels, cols, figsize=(6.4 * cols, 4.2 * rows_of_panels), squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.axis("off")
    for ax, (column, ylabel, scale, reference) in zip(axes.flat, panels):
        series = {}
        for r in rows:
            if r.get(column) and r["method"] != reference:
                label = ", ".join([r["method"]] + [f"{k}={r[k]}" for k in others])
                series.setdefault(label, {}).setdefault(r[x_key], []).append(scale * float(r[column]))
        for label, pts in sorted(series.items()):
            xs = sorted(pts, key=value_key)
            ax.plot([position[x] for x in xs], [sum(pts[x]) / len(pts[x]) for x in xs], marker="o", label=label)
        if reference:
            ax.axhline(1.0, color="grey", lw=0.8, label=reference)
        if reference == "round-robin":
            ax.axhline(1.25, color="grey", lw=0.8, ls="--", label="20% less time than round-robin")
        ax.set_ylabel(ylabel)
        ax.grid(True, lw=0.3)
        if numeric:
            ax.set_xlabel(f"{x_key} ({numeric[1]})" if numeric[1] else x_key)
            nums = [n for n in numeric[0] if n > 0]
            if len(nums) == len(numeric[0]) and max(nums) / min(nums) >= 20:
                ax.set_xscale("log")
            # Ticks at the swept values, as plain numbers (a log axis would print 10^-1).
            ax.set_xticks(numeric[0])
            ax.set_xticklabels([f"{n:g}" for n in numeric[0]], fontsize=8)
            ax.minorticks_off()
        else:
            ax.set_xlabel(f"{x_key} (as given)")
            ax.set_xticks(range(len(values)))
            ax.set_xticklabels(values, rotation=20, ha="right", fontsize=8)
        if series or reference:
            ax.legend(fontsize=7)
    fig.suptitle(f"sweep over {x_key}", fontsize=10)
    fig.tight_layout()
    save(fig, out_dir, "sweep_" + re.sub(r"[^A-Za-z0-9_.-]+", "_", x_key))


def bars(ax, labels, series, ylabel):
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        ax.bar([j + i * width for j in range(len(labels))], values, width, label=name)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))])
    ax.set_xticklabels(labels, rotation=20, ha="right")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)


def plot_compare(path, out_dir):
    doc = json.load(open(path))
    res = [r for r in doc["results"] if r.get("ok", True)]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.bar([r["method"] for r in res], [r["iteration_time_s"] for r in res])
    ax.axhline(doc["lower_bound_s"], color="black", ls="--", lw=0.8, label="lower bound")
    ax.set_ylabel("iteration time (s, SimGrid)")
    ax.set_title(doc["scenario"])
    ax.legend()
    save(fig, out_dir, "compare_" + doc["scenario"])


def placement_gpus(placement):
    """(job index, job name, region, host, slot, stage) of every GPU of a placement (one job or several)."""
    jobs = placement["jobs"] if "jobs" in placement else [dict(placement, name="")]
    out = []
    for j, job in enumerate(jobs):
        par = job["parallelism"]
        per_stage = par["dp"] * par["tp"]
        for e in job["ranks"]:
            out.append((j, job["name"], e["region"], e["host"], e["slot"], e["rank"] // per_stage, par["pp"]))
    return out


def plot_placement(scn, out_dir):
    """One column per region, one row per host, GPUs as squares coloured by pipeline stage (several jobs: by job,
    each job's stages from light to dark)."""
    best = None
    for r in scn["results"]:
        if r.get("ok", True) and r["method"] in ("gnn", "gnn+refine", "search"):
            best = r if best is None or r["method"] == "gnn" else best
    if best is None:
        return
    gpus = placement_gpus(best["placement"])
    several = "jobs" in best["placement"]
    regions = {}
    for job, name, region, host, slot, stage, stages in gpus:
        regions.setdefault(region, {}).setdefault(host, []).append((slot, job, stage, stages))
    width = 2 + max(g[4] for g in gpus)
    fig, ax = plt.subplots(figsize=(max(6, 0.25 * width * len(regions)), 4))
    stage_colours, job_colours = plt.get_cmap("tab20"), plt.get_cmap("tab10")
    for col, (region, hosts) in enumerate(sorted(regions.items())):
        for row, (host, slots) in enumerate(sorted(hosts.items())):
            for slot, job, stage, stages in slots:
                if several:
                    colour, alpha = job_colours(job % 10), 0.35 + 0.65 * (stage + 1) / stages
                else:
                    colour, alpha = stage_colours(stage % 20), 1.0
                ax.add_patch(plt.Rectangle((col * width + slot, -row * 1.5), 0.9, 0.9, color=colour, alpha=alpha))
        ax.text(col * width, 1.2, region, fontsize=8)
    if several:
        names = {job: name for job, name, *_ in gpus}
        ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=job_colours(j % 10), label=n)
                           for j, n in sorted(names.items())], fontsize=7, loc="lower right")
    ax.set_xlim(-1, width * len(regions))
    ax.set_ylim(-1.5 * max(len(h) for h in regions.values()) - 1, 2)
    ax.axis("off")
    what = "job, shade = pipeline stage" if several else "pipeline stage"
    ax.set_title(f"{scn['scenario']}: {best['method']} placement (colour = {what})")
    save(fig, out_dir, "placement_" + scn["scenario"])


def plot_job_times(scn, out_dir):
    """Several jobs: each job's iteration time (and the objective) under every method that ran."""
    res = [r for r in scn["results"] if r.get("ok", True) and len(r.get("jobs", [])) > 1]
    if not res:
        return
    labels = [j["name"] for j in res[0]["jobs"]] + ["objective"]
    series = {r["method"]: [j["iteration_time_s"] for j in r["jobs"]] + [r["objective_s"]] for r in res}
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(labels)), 4.5))
    bars(ax, labels, series, "iteration time (s, SimGrid)")
    ax.set_title(scn["scenario"] + ": jobs sharing the cluster")
    save(fig, out_dir, "jobs_" + scn["scenario"])


def plot_reproduce(path, out_dir):
    doc = json.load(open(path))
    scenarios = [s["scenario"] for s in doc["scenarios"]]
    methods = []
    for s in doc["scenarios"]:
        for r in s["results"]:
            if r["method"] not in methods:
                methods.append(r["method"])
    # An absent speedup (method failed, or round-robin did not run) is null in the JSON: drawn as no bar (0).
    series = {m: [next((r.get("speedup_vs_round_robin") or 0 for r in s["results"] if r["method"] == m and
                        r.get("ok", True)), 0) for s in doc["scenarios"]] for m in methods}
    fig, ax = plt.subplots(figsize=(max(7, 1.4 * len(scenarios)), 4.5))
    bars(ax, scenarios, series, "speedup vs round-robin (SimGrid)")
    ax.axhline(1.25, color="grey", ls="--", lw=0.8)
    save(fig, out_dir, "reproduce_speedups")
    for s in doc["scenarios"]:
        plot_placement(s, out_dir)
        plot_job_times(s, out_dir)


def plot_scale(path, out_dir):
    with open(path, newline="") as f:
        rows = sorted(csv.DictReader(f), key=lambda r: int(r["gpus"]))
    if not rows:
        sys.exit("plot: no rows in " + path)
    # One line per placement (bench --placement a,b,c writes a row per placement and size).
    placements = list(dict.fromkeys(r["placement"] for r in rows))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    panels = (("wall time of one simulation (s, median)", [("wall_median_s", None)]),
              ("peak RSS of the simulation (MB)", [("peak_rss_mb", None)]),
              ("messages per iteration", [("messages", "all"), ("simgrid_messages", "through SimGrid")]))
    for ax, (title, series) in zip(axes, panels):
        for placement in placements:
            mine = [r for r in rows if r["placement"] == placement]
            for key, label in series:
                if key in mine[0]:
                    name = placement if len(placements) > 1 else None
                    if label:
                        name = label if name is None else name + ", " + label
                    ax.plot([int(r["gpus"]) for r in mine], [float(r[key]) for r in mine], marker="o", label=name)
        if len(placements) > 1 or any(label for _, label in series):
            ax.legend(fontsize=8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("GPUs")
        ax.set_title(title, fontsize=10)
        ax.grid(True, which="both", lw=0.3)
    save(fig, out_dir, "scale")


def plot_learning_curve(path, out_dir):
    with open(path, newline="") as f:
        rows = sorted(csv.DictReader(f), key=lambda r: int(r["examples"]))
    if not rows:
        sys.exit("plot: no rows in " + path)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    # Left: the scorer's own validation measure, with the best labelled and a blind move as reference lines.
    points = {int(r["examples"]): float(r["val_top_ranked"]) for r in rows if r["val_top_ranked"]}
    left.plot(list(points), [100 * v for v in points.values()], marker="o", label="top-ranked move")
    for key, label in (("val_best", "best labelled move"), ("val_blind", "blind move")):
        if rows[0].get(key):
            left.axhline(100 * float(rows[0][key]), ls="--", lw=0.8, color="grey")
            left.annotate(label, (min(points, default=0), 100 * float(rows[0][key])), fontsize=8, va="bottom")
    left.set_xlabel("training examples (labelled moves)")
    left.set_ylabel("validation time change of the move (%)")
    left.grid(True, lw=0.3)
    left.legend(fontsize=8)
    # Right: each family's variants against greedy (gnn families), one line each.
    for family, variant in dict.fromkeys((r["family"], r["variant"]) for r in rows):
        mine = [r for r in rows if r["family"] == family and r["variant"] == variant]
        right.plot([int(r["examples"]) for r in mine], [float(r["vs_greedy"]) for r in mine], marker="o",
                   label=f"{family} {variant}")
    right.axhline(1.0, color="grey", lw=0.8)
    right.set_xlabel("training examples (labelled moves)")
    right.set_ylabel("speedup over greedy (geometric mean, SimGrid)")
    right.grid(True, lw=0.3)
    right.legend(fontsize=8)
    save(fig, out_dir, "learning_curve")


def plot_iterations(run_dir, out_dir):
    path = os.path.join(run_dir, "iterations.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot: no rows in " + path)
    fig, ax = plt.subplots(figsize=(9, 4))
    jobs = sorted({r.get("job", "") for r in rows})
    for job in jobs:
        for attempt in sorted({int(r["attempt"]) for r in rows}):
            mine = [r for r in rows if r.get("job", "") == job and int(r["attempt"]) == attempt]
            if not mine:
                continue
            label = (job + " " if job else "") + f"attempt {attempt}"
            kept = [r for r in mine if r["kept"] == "1"]
            lost = [r for r in mine if r["kept"] != "1"]
            line = ax.plot([float(r["end_s"]) for r in kept], [float(r["time_s"]) for r in kept], marker="o", ms=3,
                           lw=1, label=label)[0]
            if lost:
                ax.plot([float(r["end_s"]) for r in lost], [float(r["time_s"]) for r in lost], ls="none",
                        marker="o", ms=5, mfc="none", color=line.get_color(), label=label + " (redone)")
    result_path = os.path.join(run_dir, "result.json")
    if os.path.exists(result_path):
        with open(result_path) as f:
            result = json.load(f)
        for a in result.get("events", {}).get("attempts", [])[1:]:
            ax.axvline(a["start_s"], color="grey", lw=0.8, ls="--")
    ax.set_xlabel("simulated time at the end of the iteration (s)")
    ax.set_ylabel("iteration time (s)")
    ax.grid(True, lw=0.3)
    ax.legend(fontsize=8)
    save(fig, out_dir, "iterations")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=["sweep", "compare", "reproduce", "scale", "learning-curve", "iterations"])
    p.add_argument("input")
    p.add_argument("--out", default=".")
    p.add_argument("--x", default=None, help="sweep: only this swept column on the x axis (default: one figure each)")
    a = p.parse_args()
    {"sweep": lambda: plot_sweep(a.input, a.out, a.x), "compare": lambda: plot_compare(a.input, a.out),
     "reproduce": lambda: plot_reproduce(a.input, a.out), "scale": lambda: plot_scale(a.input, a.out),
     "learning-curve": lambda: plot_learning_curve(a.input, a.out), "iterations": lambda: plot_iterations(a.input, a.out)}[a.kind]()


if __name__ == "__main__":
    main()
