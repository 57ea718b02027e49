#!/usr/bin/python3
"""Plots for hulk outputs (matplotlib from Debian's python3-matplotlib).

  plot.py sweep SWEEP.csv --out DIR [--x KEY]   speedup-vs-parameter curves (one line per method)
  plot.py compare COMPARE.json --out DIR        bar chart of iteration time per method
  plot.py reproduce REPRODUCE.json --out DIR    bar chart of speedups vs round-robin per scenario and method,
                                                and one placement picture per scenario (regions, GPUs by stage)
  plot.py scale SCALE.csv --out DIR             simulation wall time, peak memory and messages against GPUs
                                                (the CSV of `hulk bench --simulation-only --csv`)
  plot.py iterations RUN_DIR --out DIR          per-iteration times of a run with events (its iterations.csv),
                                                attempts after host failures in their own colour, redone
                                                iterations hollow, each restart a dashed line
Each figure is written as PNG and SVG.
Run it with /usr/bin/python3 (or as tools/plot.py): tools/install-deps.sh installs matplotlib for Debian's python3,
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
          "tools/plot.py ... (tools/install-deps.sh installs python3-matplotlib for it), or pip install matplotlib",
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


def plot_sweep(path, out_dir, x_key):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("ok") == "1"]
    if not rows:
        sys.exit("plot: no successful rows in " + path)
    fixed = {"point", "method", "ok", "iteration_time_s", "speedup_vs_round_robin", "speedup_vs_greedy",
             "gap_to_lower_bound", "lower_bound_s", "method_wall_s", "compute_utilisation", "error"}
    keys = [k for k in rows[0].keys() if k not in fixed]
    x_key = x_key or keys[0]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for method in sorted({r["method"] for r in rows}):
        pts = {}
        for r in rows:
            if r["method"] == method:
                if r["speedup_vs_round_robin"]:  # empty when round-robin failed at this point
                    pts.setdefault(r[x_key], []).append(float(r["speedup_vs_round_robin"]))
        xs = sorted(pts, key=value_key)
        if not xs:
            continue
        ax.plot(xs, [sum(pts[x]) / len(pts[x]) for x in xs], marker="o", label=method)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.axhline(1.25, color="grey", lw=0.8, ls="--", label="20% faster than round-robin")
    ax.set_xlabel(x_key)
    ax.set_ylabel("speedup vs round-robin (SimGrid)")
    ax.legend()
    save(fig, out_dir, "sweep_speedup")
    plot_sweep_utilisation(rows, keys, x_key, out_dir)


def plot_sweep_utilisation(rows, keys, x_key, out_dir):
    """Compute utilisation against the x key, one line per method and value of the other keys (e.g. DiLoCo's
    inner_steps per WAN bandwidth)."""
    if not any(r.get("compute_utilisation") for r in rows):
        return
    others = [k for k in keys if k != x_key]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = {}
    for r in rows:
        if r.get("compute_utilisation"):
            label = " ".join([r["method"]] + [f"{k}={r[k]}" for k in others])
            series.setdefault(label, {}).setdefault(r[x_key], []).append(float(r["compute_utilisation"]))
    for label, pts in sorted(series.items()):
        xs = sorted(pts, key=value_key)
        ax.plot(xs, [100 * sum(pts[x]) / len(pts[x]) for x in xs], marker="o", label=label)
    ax.set_xlabel(x_key)
    ax.set_ylabel("compute utilisation (% of wall time, SimGrid)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    save(fig, out_dir, "sweep_utilisation")


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
    p.add_argument("kind", choices=["sweep", "compare", "reproduce", "scale", "iterations"])
    p.add_argument("input")
    p.add_argument("--out", default=".")
    p.add_argument("--x", default=None, help="sweep key for the x axis (default: the first)")
    a = p.parse_args()
    {"sweep": lambda: plot_sweep(a.input, a.out, a.x), "compare": lambda: plot_compare(a.input, a.out),
     "reproduce": lambda: plot_reproduce(a.input, a.out), "scale": lambda: plot_scale(a.input, a.out),
     "iterations": lambda: plot_iterations(a.input, a.out)}[a.kind]()


if __name__ == "__main__":
    main()
