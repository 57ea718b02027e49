#!/usr/bin/env bash
# Resumes that cannot reuse stale results: a sweep folder holds a manifest of its inputs, and a rerun with
# other methods, another value list or another scenario is refused with one line naming what changed (exit 2), or
# recomputed with --restart without duplicated or skipped points; sweep-merge names missing shards; a YAML flow map
# is one --set value; gen-data refuses a changed --budget, --max-gpus or --count, naming the option.
# Usage: trusted_resume.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
source "$(dirname "$0")/lib/common.bash" "$@"
# points CSV: the point,value pairs of the rows, sorted (duplicates kept).
points() { tail -n +2 "$1" | cut -d, -f1,2 | sort; }

m=(--methods round-robin,greedy)
"$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,10Gbps "${m[@]}" --out "$tmp/s" 2>"$tmp/err" ||
  fail "first sweep: $(cat "$tmp/err")"
[ -f "$tmp/s/sweep.manifest.json" ] && ok "manifest written" || fail "no sweep.manifest.json"

expect_refusal "changed value list refused" "values of wan.default.bandwidth (was 100Mbps,10Gbps, now 100Mbps,1Gbps,10Gbps)" \
  "$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,1Gbps,10Gbps "${m[@]}" --out "$tmp/s"
expect_refusal "changed methods refused" "--methods (was round-robin,greedy, now round-robin)" \
  "$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,10Gbps --methods round-robin --out "$tmp/s"
expect_refusal "changed budget refused" "--budget" \
  "$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,10Gbps "${m[@]}" --budget 77 --out "$tmp/s"
sed 's/utilisation: 0.4/utilisation: 0.5/' "$tiny" >"$tmp/tiny2.yaml"
expect_refusal "changed scenario refused" "scenario file's content" \
  "$hulk" sweep "$tmp/tiny2.yaml" --set wan.default.bandwidth=100Mbps,10Gbps "${m[@]}" --out "$tmp/s"
[ "$(points "$tmp/s/sweep.csv" | tr '\n' ' ')" = "0,100Mbps 0,100Mbps 1,10Gbps 1,10Gbps " ] &&
  ok "refusals left the rows alone" || { fail "rows changed by a refused run:"; cat "$tmp/s/sweep.csv"; }

# A resumed sweep reruns a row cut short (it counted as done) and writes the header into an empty sweep.csv (rows
# went in without one).
"$hulk" sweep "$tiny" --set job.utilisation=0.3,0.4 --methods round-robin --out "$tmp/cut" 2>/dev/null || fail "sweep for the cut row"
cp "$tmp/cut/sweep.csv" "$tmp/cut-full.csv"
head -c -20 "$tmp/cut-full.csv" >"$tmp/cut/sweep.csv"
"$hulk" sweep "$tiny" --set job.utilisation=0.3,0.4 --methods round-robin --out "$tmp/cut" 2>"$tmp/err" || fail "resume after a cut row"
grep -q "1 already done" "$tmp/err" && ok "a row cut short is not counted as done" || fail "cut row: $(head -1 "$tmp/err")"
[ "$(cut -d, -f1-9 "$tmp/cut/sweep.csv")" = "$(cut -d, -f1-9 "$tmp/cut-full.csv")" ] || fail "the cut row was not recomputed"
: >"$tmp/cut/sweep.csv"
"$hulk" sweep "$tiny" --set job.utilisation=0.3,0.4 --methods round-robin --out "$tmp/cut" 2>/dev/null || fail "resume from an empty sweep.csv"
[ "$(cut -d, -f1-9 "$tmp/cut/sweep.csv")" = "$(cut -d, -f1-9 "$tmp/cut-full.csv")" ] && ok "an empty sweep.csv gets its header" ||
  fail "an empty sweep.csv resumed without its header"

# A file the scenario reads (here an event trace) changed: its rows are not reused either.
mkdir -p "$tmp/tr"
cp "$tiny" "$tmp/tr/t.yaml"
printf 'events:\n  - {trace: wan.csv}\n' >>"$tmp/tr/t.yaml"
printf 'time,target,bandwidth\n0s,east~west,50%%\n' >"$tmp/tr/wan.csv"
"$hulk" sweep "$tmp/tr/t.yaml" --set job.utilisation=0.4 --methods round-robin --out "$tmp/trs" 2>"$tmp/err" ||
  fail "sweep with a trace: $(cat "$tmp/err")"
printf 'time,target,bandwidth\n0s,east~west,20%%\n' >"$tmp/tr/wan.csv"
expect_refusal "changed data file refused" "the scenario as loaded" \
  "$hulk" sweep "$tmp/tr/t.yaml" --set job.utilisation=0.4 --methods round-robin --out "$tmp/trs"

"$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,1Gbps,10Gbps "${m[@]}" --out "$tmp/s" --restart 2>"$tmp/err" ||
  fail "--restart: $(cat "$tmp/err")"
want="0,100Mbps 0,100Mbps 1,1Gbps 1,1Gbps 2,10Gbps 2,10Gbps "
got="$(points "$tmp/s/sweep.csv" | tr '\n' ' ')"
[ "$got" = "$want" ] && ok "--restart recomputes every point once" || fail "--restart rows: '$got', expected '$want'"
"$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,1Gbps,10Gbps "${m[@]}" --out "$tmp/s" 2>"$tmp/err" ||
  fail "resume with the same inputs: $(cat "$tmp/err")"
grep -q "3 already done" "$tmp/err" && ok "same inputs resume" || { fail "same inputs did not resume:"; cat "$tmp/err"; }

# sweep-merge: a missing shard is an error naming it, or accepted (and named) with --allow-missing.
"$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,1Gbps,10Gbps "${m[@]}" --shard 0/2 --out "$tmp/sh" 2>/dev/null ||
  fail "shard 0/2 failed"
expect_refusal "merge with a missing shard" "sweep.shard-1-of-2.csv" "$hulk" sweep merge "$tmp/sh"
[ -f "$tmp/sh/sweep.csv" ] && fail "a refused merge wrote sweep.csv"
"$hulk" sweep merge "$tmp/sh" --allow-missing 2>"$tmp/err" && grep -q "MISSING shards 1" "$tmp/err" &&
  ok "--allow-missing merges and names the missing shard" || { fail "--allow-missing:"; cat "$tmp/err"; }
"$hulk" sweep "$tiny" --set wan.default.bandwidth=100Mbps,1Gbps,10Gbps "${m[@]}" --shard 1/2 --out "$tmp/sh" 2>/dev/null ||
  fail "shard 1/2 failed"
"$hulk" sweep merge "$tmp/sh" 2>"$tmp/err" || fail "complete merge: $(cat "$tmp/err")"
cmp -s <(cut -d, -f1-5 "$tmp/sh/sweep.csv") <(cut -d, -f1-5 "$tmp/s/sweep.csv") &&
  ok "merged shards equal the unsharded run" || fail "merged shards differ from the unsharded run"

# A shard row whose time was edited to a negative number (or any non-result) is refused, naming file and line.
cp -r "$tmp/sh" "$tmp/sh-edited"
rm -f "$tmp/sh-edited/sweep.csv"
sed -i '2s/^\(\([^,]*,\)\{3\}\)1,[^,]*,/\11,-3.5,/' "$tmp/sh-edited/sweep.shard-0-of-2.csv"
grep -q -- ',1,-3.5,' "$tmp/sh-edited/sweep.shard-0-of-2.csv" || fail "test setup: the shard row was not edited"
expect_refusal "merge of an edited negative time" "sweep.shard-0-of-2.csv:2: iteration_time_s: '-3.5'" \
  "$hulk" sweep merge "$tmp/sh-edited"
[ -f "$tmp/sh-edited/sweep.csv" ] && fail "a refused merge wrote sweep.csv"

# A YAML flow map with commas is one --set value (one point each), written one column per leaf.
"$hulk" sweep "$tiny" --set 'regions.east.host_link={bandwidth: 25Gbps, latency: 10us},{bandwidth: 1Gbps, latency: 1ms}' \
  --methods round-robin --out "$tmp/map" 2>"$tmp/err" || fail "flow map --set: $(cat "$tmp/err")"
[ "$(tail -n +2 "$tmp/map/sweep.csv" | wc -l)" -eq 2 ] && grep -q '^0,25Gbps,10us,round-robin,' "$tmp/map/sweep.csv" &&
  grep -q '^1,1Gbps,1ms,round-robin,' "$tmp/map/sweep.csv" &&
  ok "flow map values are whole values" || { fail "flow map sweep rows:"; cat "$tmp/map/sweep.csv"; }
# The same rows in the earlier layout (one quoted column per key, compute_utilisation, no mfu) resume: nothing is
# recomputed and the file is rewritten in the current layout, mfu empty.
cp "$tmp/map/sweep.csv" "$tmp/map/current.csv"
python3 - "$tmp/map/current.csv" "$tmp/map/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
values = ["{bandwidth: 25Gbps, latency: 10us}", "{bandwidth: 1Gbps, latency: 1ms}"]
out = csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n")
out.writerow(["point", "regions.east.host_link"] + rows[0][3:11] + ["compute_utilisation", "error"])
for r in rows[1:]:
    out.writerow([r[0], values[int(r[0])]] + r[3:12] + [r[13]])
PY
grep -q '^point,regions.east.host_link,method,.*,compute_utilisation,error$' "$tmp/map/sweep.csv" ||
  fail "test setup: no earlier-layout CSV"
"$hulk" sweep "$tiny" --set 'regions.east.host_link={bandwidth: 25Gbps, latency: 10us},{bandwidth: 1Gbps, latency: 1ms}' \
  --methods round-robin --out "$tmp/map" 2>"$tmp/err" || fail "resume of the earlier layout: $(cat "$tmp/err")"
grep -q "2 points, 2 in this shard, 2 already done" "$tmp/err" &&
  cmp -s <(cut -d, -f1-12 "$tmp/map/current.csv") <(cut -d, -f1-12 "$tmp/map/sweep.csv") &&
  [ "$(cut -d, -f13 "$tmp/map/sweep.csv" | sort -u | tr '\n' ' ')" = " mfu " ] &&
  ok "a sweep in the earlier layout resumes and is rewritten" || { fail "earlier layout resume:"; cat "$tmp/err" "$tmp/map/sweep.csv"; }

# gen-data: the manifest is written before the first sample; a changed option is refused and named.
mkdir -p "$tmp/d"
printf '{"format_version": 1, "count": 4, "seed": 1, "generator": "hulk gnn gen-data --count 4 --seed 1 --budget 100 --max-gpus 8"}\n' >"$tmp/d/manifest.json"
expect_refusal "gen-data: changed --budget" "--budget (was 100, now 200)" \
  "$hulk" gnn gen-data --count 4 --seed 1 --budget 200 --max-gpus 8 --out "$tmp/d"
expect_refusal "gen-data: changed --max-gpus" "--max-gpus (was 8, now 16)" \
  "$hulk" gnn gen-data --count 4 --seed 1 --budget 100 --max-gpus 16 --out "$tmp/d"
expect_refusal "gen-data: changed --count" "--count (was 4, now 5)" \
  "$hulk" gnn gen-data --count 5 --seed 1 --budget 100 --max-gpus 8 --out "$tmp/d"
ls "$tmp/d/samples" 2>/dev/null | grep -q . && fail "a refused gen-data wrote samples"

[ "$failures" -eq 0 ] && echo "trusted_resume: all ok"
exit "$failures"
