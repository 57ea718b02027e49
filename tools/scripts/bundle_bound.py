#!/usr/bin/python3
"""How many SimGrid flows bundling identical flows could save, measured on a run's comm.csv.

  bundle_bound.py COMM_CSV [COMM_CSV ...]

Bundling k flows that share their route, size and start into one SimGrid action (sharing penalty 1/k) is exact only
for such k-tuples, so the number of distinct (source host, destination host, bytes, start) keys among the messages
that cross hosts is the least number of SimGrid flows bundling could leave; the rest is its ceiling. The start is the
time the sender posted the message (comm.csv's start_s): ring receives are posted ahead (collectives.hpp), so a ring
step starts when it is posted. Intra-host messages are left out: their closed forms take them off SimGrid already
where they can.

Prints, per file: messages, inter-host messages, the distinct keys, the share of inter-host messages that bundling
could remove, and the same per message kind (tp, dp, pp).
"""
import collections
import csv
import sys


def bound(path):
    """Counts per kind: (inter-host messages, messages in a key shared with another)."""
    keys = collections.Counter()
    rows = []
    total = 0
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            total += 1
            if r["src_host"] == r["dst_host"]:
                continue
            key = (r["src_host"], r["dst_host"], r["bytes"], r["start_s"])
            keys[key] += 1
            rows.append((key, r["kind"]))
    per_kind = collections.defaultdict(lambda: [0, 0])
    for key, kind in rows:
        per_kind[kind][0] += 1
        per_kind[kind][1] += keys[key] > 1
    return total, len(rows), len(keys), per_kind


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for path in paths:
        try:
            total, inter, distinct, per_kind = bound(path)
        except OSError as e:
            print(f"bundle_bound.py: {path}: {e.strerror}", file=sys.stderr)
            return 2
        except KeyError as e:
            print(f"bundle_bound.py: {path}: no column {e} (expected hulk's comm.csv header)", file=sys.stderr)
            return 2
        saved = 1 - distinct / inter if inter else 0.0
        print(f"{path}: {total} messages, {inter} between hosts, {distinct} distinct (route, size, start): "
              f"bundling removes at most {saved:.1%} of the inter-host flows")
        for kind in sorted(per_kind):
            n, shared = per_kind[kind]
            print(f"  {kind}: {n} between hosts, {shared} ({shared / n:.1%}) share their key with another")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
