#!/usr/bin/env python3
"""Renders the generated blocks of README.md and docs/*.md from the outputs in docs/results/ (tools/scripts/docs.sh).

A generated block sits between `<!-- NAME:start -->` and `<!-- NAME:end -->`. With --check nothing is written: the
exit code is 1 and each stale block is named when a block differs from what docs/results/ gives (ctest
docs.consistency). Wall-clock columns are shown as the runs printed them; only they may differ between two
regenerations.
"""
import csv
import json
import math
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
RESULTS = ROOT / "docs" / "results"


def read(name):
    return (RESULTS / name).read_text()


def fenced(text):
    return "```\n" + text.rstrip("\n") + "\n```"


def quickstart_table():
    lines = [l for l in read("quickstart.txt").splitlines() if not l.startswith("hulk:")]
    return fenced("\n".join(lines))


def quickstart_yaml():
    return "```yaml\n" + (ROOT / "scenarios" / "examples" / "quickstart.yaml").read_text().rstrip("\n") + "\n```"


def plan_table():
    return fenced(read("plan.txt").replace(str(ROOT) + "/", ""))


def plan_yaml():
    """The job values the plan example leaves to hulk (`auto`), as they stand in its file."""
    text = (ROOT / "scenarios" / "examples" / "plan-auto.yaml").read_text()
    autos = [l.split("#")[0].rstrip() for l in text.splitlines() if re.match(r"^  \w+: auto\b", l)]
    return "```yaml\njob:    # scenarios/examples/plan-auto.yaml (excerpt)\n" + "\n".join(autos) + "\n```"


def plan_simulate():
    lines = [l for l in read("plan-simulate.txt").splitlines() if not l.startswith("hulk:")]
    return fenced("\n".join(lines).replace(str(ROOT) + "/", ""))


def ratio(x):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else "%.3fx" % x


def claim_rows(summary, methods):
    rows = []
    for m in methods:
        s = summary.get(m)
        if not s:
            continue
        rows.append("| %s | %s (worst %s) | %s (worst %s) | %.1f%% | %.3f s |" % (
            m, ratio(s.get("geomean_speedup_vs_round_robin")), ratio(s.get("worst_speedup_vs_round_robin")),
            ratio(s.get("geomean_speedup_vs_greedy")), ratio(s.get("worst_speedup_vs_greedy")),
            100 * s.get("mean_gap_to_search", float("nan")), s.get("mean_method_wall_s", float("nan"))))
    return rows


def verdict(part):
    """One line on the claim against round-robin and greedy; a reference that never ran (e.g. round-robin breaking
    memory) is said to leave the claim against it untested."""
    def against(name, fraction):
        if fraction is None:
            return "%s did not run (the claim against it is not tested)" % name, "not tested"
        faster = 100 * fraction
        return "%.1f%% less than %s" % (faster, name), "holds" if faster > 20 else "does not hold"
    rr_text, rr_verdict = against("round-robin", part["claim_fraction_faster"])
    greedy_text, greedy_verdict = against("greedy", part["claim_fraction_faster_vs_greedy"])
    return ("%s: %s, %s (time per iteration, geometric means): the paper's claim (more than 20%% less) %s against "
            "round-robin (%d scenario(s)) and %s against greedy" % (
                part["claim_method"], rr_text, greedy_text, rr_verdict, part["claim_scenarios"], greedy_verdict))


def fidelity_lines():
    lines = read("fidelity.txt").splitlines()
    return [l for l in lines if re.match(r"^\S+: utilisation|^all series:", l)]


PLACEMENT_ORDER = {"greedy": 0, "round-robin": 1, "random": 2}


def scale_rows():
    """The scale table: greedy at every size (scale.csv) and, where measured, round-robin and random beside it
    (scale-placements.csv), grouped by size."""
    names = ["scale.csv"] + (["scale-placements.csv"] if (RESULTS / "scale-placements.csv").exists() else [])
    rows = []
    for name in names:
        with open(RESULTS / name) as f:
            rows += list(csv.DictReader(f))
    rows.sort(key=lambda r: (int(r["gpus"]), PLACEMENT_ORDER.get(r["placement"], 3)))
    out = ["| GPUs | placement | messages | through SimGrid | wall (median) | CPU (median) | peak RSS |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| {:,} | {} | {:,} | {:,} | {} s | {} | {} MB |".format(
            int(r["gpus"]), r["placement"], int(r["messages"]), int(r["simgrid_messages"]), r["wall_median_s"],
            r["cpu_median_s"] + " s" if "cpu_median_s" in r else "n/a", r["peak_rss_mb"]))
    return out


def headline():
    rep = json.loads(read("reproduce.json"))
    methods = ["greedy", "search", "gnn", "gnn+refine"]
    out = ["Paper reproduction (`hulk reproduce`, %d scenarios on the paper's 47 measured servers; SimGrid times; "
           "speedups are geometric means):" % rep["claim_scenarios"], "",
           "| method | vs round-robin | vs greedy | mean gap to search | mean placement time |",
           "|---|---|---|---|---|"]
    out += claim_rows(rep["summary"], methods)
    out += ["", "- " + verdict(rep)]
    if rep.get("several_jobs"):
        out.append("- several jobs sharing the cluster: " + verdict(rep["several_jobs"]))
    out += ["", "Predictions against published measured runs (`hulk fidelity`, one utilisation per hardware series):",
            "", fenced("\n".join(fidelity_lines())), "",
            "One simulated iteration at scale (`hulk bench scenarios/scale/scale-*.yaml --simulation-only`, "
            "`--placement round-robin,random` at 64 and 256 GPUs):", ""]
    out += scale_rows()
    return "\n".join(out)


def blocks():
    """The generated blocks, by file and block name."""
    return {
        ROOT / "README.md": {"quickstart-yaml": quickstart_yaml, "quickstart-table": quickstart_table,
                             "headline": headline, "plan-yaml": plan_yaml, "plan-table": plan_table},
        ROOT / "docs" / "validation.md": {"fidelity": lambda: fenced(read("fidelity.txt"))},
        ROOT / "docs" / "performance.md": {"scale": lambda: "\n".join(scale_rows())},
        ROOT / "docs" / "plan.md": {"plan": plan_table, "plan-simulate": plan_simulate, "plan-layouts": lambda: fenced(read("plan-layouts.txt"))},
    }


def render(text, name, body):
    pattern = re.compile(r"(<!-- %s:start -->\n).*?(\n<!-- %s:end -->)" % (re.escape(name), re.escape(name)), re.S)
    if not pattern.search(text):
        raise SystemExit("docs_render: no block '%s' (<!-- %s:start --> ... <!-- %s:end -->)" % (name, name, name))
    return pattern.sub(lambda m: m.group(1) + body + m.group(2), text)


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for path, named in blocks().items():
        text = path.read_text()
        new = text
        for name, make in named.items():
            new = render(new, name, make())
        if new != text:
            if check:
                stale.append(str(path.relative_to(ROOT)))
            else:
                path.write_text(new)
    if stale:
        print("stale generated blocks (run bash tools/scripts/docs.sh, or tools/scripts/docs_render.py after it): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
