# Collective benchmarks (`collective:` instead of `job:`): `hulk simulate` prints nccl-tests' columns and writes
# result.json; the busbw of a ring through one NIC per node is the NIC's bandwidth at the transport's fraction;
# bad values are one line (file:line: key), exit 2; `hulk fidelity` calibrates a transport's fraction on a series of
# benchmarks. Arguments: HULK_BINARY TESTS_DIR [SOURCE_DIR].
source "$(dirname "$0")/lib/common.bash"
data="$tests/data/fidelity-collective"
bench="$data/ring-2x8-1gib.yaml"

"$hulk" simulate "$bench" --out "$tmp/run" >"$tmp/out" 2>"$tmp/err" || { fail "simulate exit $?"; cat "$tmp/err"; }
grep -q '^ring-2x8-1gib: all_reduce (ring) over 2 nodes x 8 GPUs = 16 ranks$' "$tmp/out" && ok "summary header" ||
  { fail "summary header"; cat "$tmp/out"; }
python3 - "$tmp/run/result.json" <<'PY' && ok "result.json: time, algbw, busbw = the NIC at tcp's 0.6" || fail "result.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["collective"] == {"op": "all_reduce", "algorithm": "ring", "bytes": 1073741824, "nodes": 2,
                           "gpus_per_node": 8, "ranks": 16}, r["collective"]
assert abs(r["algbw_GBps"] - 1073741824 / r["time_s"] / 1e9) < 1e-9 * r["algbw_GBps"]
assert abs(r["busbw_GBps"] - r["algbw_GBps"] * 2 * 15 / 16) < 1e-9 * r["busbw_GBps"]
line = 25e9 / 8 * 0.6 / 1e9  # 25 Gbps at platforms/transports.yaml's tcp fraction, GB/s
assert abs(r["busbw_GBps"] / line - 1) < 0.005, (r["busbw_GBps"], line)
PY
"$hulk" simulate "$bench" --json >"$tmp/j1" && "$hulk" simulate "$bench" --json >"$tmp/j2" && cmp -s "$tmp/j1" "$tmp/j2" &&
  ok "--json deterministic" || fail "--json differs between runs"

"$hulk" validate "$bench" >"$tmp/val" 2>&1 &&
  grep -qx 'ok: ring-2x8-1gib: 2 hosts, 16 GPUs, 1 regions, collective all_reduce (ring) of 1073741824 B over 2 nodes x 8 GPUs' \
    "$tmp/val" && ok "validate: one summary line" || { fail "validate"; cat "$tmp/val"; }

mkdir -p "$tmp/bad"
bad() {  # bad NAME PATTERN SED-EXPRESSION
  sed -e "$3" "$bench" >"$tmp/bad/b.yaml"
  expect_refusal "$1" "$2" "$hulk" simulate "$tmp/bad/b.yaml" --out "$tmp/bad/run"
  [ -e "$tmp/bad/run/result.json" ] && fail "$1: result.json written" || true
}
bad "nodes above the hosts" "b.yaml:6: collective.nodes: 3 nodes, but the platform has 2 hosts" 's/nodes: 2/nodes: 3/'
bad "unknown op" "b.yaml:6: collective.op" 's/op: all_reduce/op: all_to_all/'
bad "tree for all_gather" "b.yaml:6: collective.algorithm: tree runs all_reduce only" \
  's/op: all_reduce/op: all_gather/; s/algorithm: ring/algorithm: tree/'
bad "unknown key" "b.yaml:6: collective.byte" 's/bytes:/byte:/'
expect_refusal "--set on a benchmark" "--set: not for a collective benchmark file" \
  "$hulk" simulate "$bench" --set collective.bytes=1MiB

"$hulk" fidelity "$data" >"$tmp/fid" 2>"$tmp/fid.err" || { fail "fidelity exit $?"; cat "$tmp/fid.err"; }
grep -q '^tiny-tcp  *big  *[0-9.]*  *[0-9.]*  *+0\.00% (cal)  *synthetic test value$' "$tmp/fid" && ok "calibration row" ||
  { fail "calibration row"; cat "$tmp/fid"; }
# busbw 1.5 GB/s of a 3.125 GB/s line: the calibrated fraction is about 0.48; the 64 MiB point is a prediction.
grep -q '^tiny-tcp: achieved tcp 0\.4[0-9]* (calibrated on big, [0-9]* simulations); 1 point besides calibration' \
  "$tmp/fid" && ok "series summary names the transport's fraction" || { fail "series summary"; tail -3 "$tmp/fid"; }
grep -q '^fidelity: \[tiny-tcp\] big: achieved tcp ' "$tmp/fid.err" && ok "progress names the fraction" ||
  fail "progress line"
"$hulk" fidelity "$data" --layouts --quiet >"$tmp/lay" 2>&1 &&
  grep -qi '^no series has two or more layouts' "$tmp/lay" && ok "--layouts passes over benchmark series" ||
  { fail "--layouts on a benchmark series"; cat "$tmp/lay"; }
sed -e 's/    transport: tcp//' "$data/measured.yaml" >"$tmp/bad/measured.yaml"
cp "$data"/ring-*.yaml "$tmp/bad/"
expect_refusal "busbw without transport" "measured.yaml:3: points.0.transport: missing for a point in GB/s busbw" \
  "$hulk" fidelity "$tmp/bad"
echo "collective_bench: $failures failure(s)"
[ "$failures" -eq 0 ]
