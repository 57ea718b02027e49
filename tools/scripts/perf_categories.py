#!/usr/bin/env python3
"""Sums a perf profile's self time by where the per-message work sits in SimGrid and hulk.

Usage: perf record -F 2000 -o P.data build/hulk simulate S.yaml --placement round-robin --out DIR
       perf report -i P.data --no-children --sort dso,symbol -g none | tools/scripts/perf_categories.py

SimGrid's actors run on their own stacks, so perf's call graphs through them are broken: self time per symbol,
grouped by the symbol's name, is what can be read reliably. The first matching category wins (the order matters:
e.g. ActorImpl is a context/simcall cost even though it also matches nothing earlier)."""
import re
import sys

CATEGORIES = [
    ("sharing solver and action heap (lmm, lazy updates)",
     ["lmm::", "ActionHeap", "next_occurring_event", "resource::Action", "NetworkCm02", "LinkImpl",
      "update_actions_state", "Model::", "CpuAction", "CpuCas01"]),
    ("context switches and simcalls",
     ["context", "swapcontext", "yield", "simcall", "Context", "ActorImpl", "wake_me_up", "EngineImpl::",
      "handle_ended", "is_maestro", "[kernel.kallsyms]"]),
    ("activity lifecycle: comms, mailboxes, sleeps, refcounts",
     ["CommImpl", "activity::", "Comm::", "Mailbox", "intrusive_ptr", "ActivityImpl", "copy_data", "Activity",
      "SleepImpl", "this_actor::sleep"]),
    ("RTTI (dynamic_cast)", ["dynamic_cast", "dyncast", "class_type_info"]),
    ("allocation", ["jemalloc", "operator new", "operator delete", "malloc", "free"]),
    ("Engine::get_instance / get_clock", ["get_instance", "get_clock"]),
    ("hulk's own code", ["hulk::", " hulk "]),
]


def main() -> int:
    totals = {name: 0.0 for name, _ in CATEGORIES}
    totals["other (small symbols, unresolved SimGrid addresses)"] = 0.0
    line_re = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[.\]\s+(.*?)\s*$")
    for line in sys.stdin:
        m = line_re.match(line)
        if not m:
            continue
        share, where = float(m.group(1)), m.group(2) + " " + m.group(3)
        for name, keys in CATEGORIES:
            if any(k in where for k in keys):
                totals[name] += share
                break
        else:
            totals["other (small symbols, unresolved SimGrid addresses)"] += share
    for name, share in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"{share:6.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
