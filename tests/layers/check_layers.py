#!/usr/bin/env python3
"""Fails when a source file includes against the layering rule of sim/README.md.

Each folder may include only the folders listed for it below (and itself). Includes of project headers must be
spelled from the source root ("sim/<folder>/<file>.hpp", "gnn/<file>.hpp"); only sim/engine may include
<simgrid/...> or <xbt/...>, and only gnn/ (and the tests and tools that use it) may include <torch/...>.
Usage: check_layers.py SOURCE_ROOT. Prints one line per violation and exits 1 if there is any.
"""
import pathlib
import re
import sys

SIM = ["core", "scenario", "workload", "topology", "evaluate", "report", "engine", "place", "features", "methods", "lab"]

# folder -> folders it may include (besides itself).
ALLOWED = {
    "sim/core": [],
    "sim/scenario": ["sim/core"],
    "sim/workload": ["sim/core"],
    "sim/topology": ["sim/core"],
    "sim/evaluate": ["sim/core", "sim/workload", "sim/topology"],
    "sim/report": ["sim/core", "sim/workload"],
    "sim/engine": ["sim/core", "sim/workload", "sim/topology", "sim/report"],
    "sim/place": ["sim/core", "sim/workload", "sim/topology", "sim/evaluate"],
    "sim/features": ["sim/core", "sim/scenario", "sim/workload", "sim/topology", "sim/evaluate", "sim/place"],
    "sim/methods": ["sim/" + f for f in SIM if f not in ("methods", "lab")],
    "sim/lab": ["sim/" + f for f in SIM if f != "lab"],
    "gnn": ["sim/" + f for f in SIM if f not in ("engine", "methods", "lab")],
    "tools": ["sim/" + f for f in SIM] + ["gnn", "tools"],
}
SIMGRID_OK = {"sim/engine"}
TORCH_OK = {"gnn", "tools"}

QUOTED = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
ANGLED = re.compile(r"^\s*#\s*include\s+<([^>]+)>")


def folder_of(rel: str) -> str:
    parts = rel.split("/")
    return "/".join(parts[:2]) if parts[0] == "sim" else parts[0]


def check(root: pathlib.Path) -> list:
    problems = []
    for path in sorted(p for d in ("sim", "gnn", "tools") for p in (root / d).rglob("*") if p.suffix in (".hpp", ".cpp")):
        rel = path.relative_to(root).as_posix()
        here = folder_of(rel)
        if here not in ALLOWED:
            problems.append(f"{rel}: folder '{here}' is not a known layer (expected one of {', '.join(ALLOWED)})")
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            quoted, angled = QUOTED.match(line), ANGLED.match(line)
            if quoted:
                target = quoted.group(1)
                if not (root / target).is_file():
                    problems.append(f"{rel}:{number}: include \"{target}\" is not spelled from the source root")
                    continue
                there = folder_of(target)
                if there != here and there not in ALLOWED[here]:
                    problems.append(f"{rel}:{number}: {here} may not include {there} (\"{target}\")")
            elif angled:
                lib = angled.group(1).split("/")[0]
                if lib in ("simgrid", "xbt") and here not in SIMGRID_OK:
                    problems.append(f"{rel}:{number}: only sim/engine may include <{angled.group(1)}>")
                if lib == "torch" and here not in TORCH_OK:
                    problems.append(f"{rel}:{number}: only gnn/ may include <{angled.group(1)}>")
    return problems


if __name__ == "__main__":
    found = check(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "."))
    for p in found:
        print(p)
    print(f"layer check: {len(found)} violation(s)")
    sys.exit(1 if found else 0)
