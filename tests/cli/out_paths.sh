#!/usr/bin/env bash
# Output paths and usage errors: an unwritable --out is found before any work, as one line naming --out
# and the path with exit code 2 (never an internal error, never after the work); a near-miss command gets "did you
# mean"; errors of the command line name the option, and are exit code 2.
# Usage: out_paths.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
source "$(dirname "$0")/lib/common.bash" "$@"
# expect_usage NAME PATTERN CMD...: expect_refusal (exit 2, one stderr line matching PATTERN), and no
# "internal error" or "<input>" in it.
expect_usage() {
  local name="$1"
  expect_refusal "$@"
  if grep -q "internal error\|<input>" "$tmp/err"; then fail "$name: stderr names an internal error or <input>"; fi
}

# /proc cannot hold new folders or files, even for root (a read-only folder would not stop root).
bad=/proc/hulk-forbidden/x
expect_usage "simulate --out" "--out: cannot write to '$bad'" "$hulk" simulate "$tiny" --placement greedy --out "$bad"
expect_usage "compare --out" "--out: cannot write to '$bad'" "$hulk" compare "$tiny" --methods greedy --out "$bad"
expect_usage "place --out" "--out: cannot write to '$bad'" "$hulk" place "$tiny" --out "$bad"
expect_usage "sweep --out" "--out: cannot write to '$bad'" "$hulk" sweep "$tiny" --set job.utilisation=0.3 --methods greedy --out "$bad"
expect_usage "gen-data --out" "--out: cannot write to '$bad'" "$hulk" gnn gen-data --count 1 --out "$bad"
expect_usage "train --out" "--out: cannot write to '$bad'" "$hulk" gnn train --data "$tmp" --out "$bad"
# Checked before the work: compare with search would take seconds; the refusal comes first, so no progress line.
grep -q "search" "$tmp/out" && fail "compare ran before refusing --out"
# A file where a folder is needed.
touch "$tmp/file"
expect_usage "sweep --out on a file" "--out: cannot write to '$tmp/file/s'" "$hulk" sweep "$tiny" --set job.utilisation=0.3 --methods greedy --out "$tmp/file/s"
# A folder where a file is needed.
expect_usage "compare --out on a folder" "it is a folder" "$hulk" compare "$tiny" --methods greedy --out "$tmp"
# A file path ending with '/' is refused before the work, not after it.
expect_usage "compare --out ending with /" "ends with '/'" "$hulk" compare "$tiny" --methods greedy --out "$tmp/newdir/"
[ -e "$tmp/newdir" ] && fail "a refused --out ending with / left its folder" || ok "--out ending with / leaves nothing"
# An empty --out is named as such (it was refused as a path that "ends with '/'"), file and folder alike.
expect_usage "place --out ''" "--out: an empty path was given (expected a file path)" "$hulk" place "$tiny" --out ''
expect_usage "sweep --out ''" "--out: an empty path was given (expected a folder path)" "$hulk" sweep "$tiny" \
  --set job.utilisation=0.3 --methods greedy --out ''
# An --out that is the command's own input (or inside an input folder) is refused: it would be overwritten.
cp "$tiny" "$tmp/own.yaml"
expect_usage "place --out = its scenario" "is an input of the command" "$hulk" place "$tmp/own.yaml" --out "$tmp/./own.yaml"
cmp -s "$tiny" "$tmp/own.yaml" || fail "place overwrote its own scenario"
# simulate --out DIR whose result.json (an earlier run's) is the placement given: refused, the file kept (an
# interrupted run had removed it and written nothing).
"$hulk" simulate "$tiny" --placement greedy --out "$tmp/run" -q >/dev/null || fail "simulate into $tmp/run failed"
cp "$tmp/run/result.json" "$tmp/result.before"
expect_usage "simulate --out holding its placement" "which the run would remove and replace" \
  "$hulk" simulate "$tiny" --placement "file:$tmp/run/result.json" --out "$tmp/./run"
cmp -s "$tmp/result.before" "$tmp/run/result.json" || fail "simulate removed or changed its own placement file"
mkdir -p "$tmp/dataset" && echo '{}' > "$tmp/dataset/manifest.json"
expect_usage "train --out inside --data" "inside the input folder" "$hulk" gnn train --data "$tmp/dataset" --out "$tmp/dataset/manifest.json"
expect_usage "train --data twice, spelt apart" "given twice" "$hulk" gnn train --data "$tmp/dataset" --data "$tmp/./dataset/" --out "$tmp/m.pt"
expect_usage "train --reinforce-weight inf" "--reinforce-weight" "$hulk" gnn train --data "$tmp/dataset" --out "$tmp/m.pt" --reinforce 2 --reinforce-weight inf
expect_usage "train --validation-candidates 0" "--validation-candidates" "$hulk" gnn train --data "$tmp/dataset" --out "$tmp/m.pt" --validation-candidates 0
# A --set value of two YAML documents is refused (the second was dropped).
expect_usage "--set value of two documents" "holds 2 YAML documents" "$hulk" compare "$tiny" --methods greedy \
  --set $'name=a\n---\nb'
# A seed past 2^64 - 1 is refused (it was clamped without a word), as is a range of seeds that passes it.
expect_usage "seed past 2^64-1" "out of range" "$hulk" compare generated --seed 18446744073709551616 --count 1
expect_usage "seeds passing 2^64-1" "pass 2^64 - 1" "$hulk" compare generated --seed 18446744073709551615 --count 2
# sweep's --set takes one KEY=V1,V2 per occurrence: the scenario after it is the scenario.
"$hulk" sweep --set job.utilisation=0.3 "$tiny" --methods greedy --out "$tmp/sweep-order" >/dev/null 2>"$tmp/err" &&
  ok "sweep --set before the scenario" || fail "sweep --set before the scenario: $(head -1 "$tmp/err")"
# A refused run leaves no folder behind.
expect_usage "bad scenario after --out" "nope.yaml" "$hulk" simulate "$tmp/nope.yaml" --out "$tmp/new/deeper"
[ -e "$tmp/new" ] && fail "a failed simulate left the --out folder it created" || ok "failed run removes the folders it created"

# Command line: did you mean, the option named, exit 2.
expect_usage "near-miss command" "did you mean 'simulate'" "$hulk" simulat "$tiny"
expect_usage "unknown option" "unknown option '--bogus' of simulate" "$hulk" simulate "$tiny" --bogus
expect_usage "near-miss option" "did you mean '--budget'" "$hulk" compare "$tiny" --budgt 5
expect_usage "bad --budget" "--budget" "$hulk" compare "$tiny" --budget lots
expect_usage "negative --budget" "--budget: '-5' is out of range (expected an integer from 0 to 100000000)" "$hulk" place "$tiny" --method search --budget -5
expect_usage "huge --budget" "--budget: '99999999999999' is out of range" "$hulk" place "$tiny" --method search --budget 99999999999999
expect_usage "--budget not a number" "--budget: expected an integer from 0 to 100000000, got 'abc'" "$hulk" place "$tiny" --method search --budget abc
expect_usage "negative --robust-states" "--robust-states: '-1' is out of range (expected an integer from 0 to 10000)" "$hulk" compare "$tiny" --robust-states -1
expect_usage "jobs-eval --out a folder" "--out: cannot write to" "$hulk" compare generated --count 1 --out "$tmp"
expect_usage "bench --csv a folder" "--csv: cannot write to" "$hulk" bench "$tiny" --reps 1 --no-gnn --csv "$tmp"
expect_usage "sweep with a missing model" "--model: cannot open the model file" "$hulk" sweep "$tiny" \
  --set job.utilisation=0.3 --methods gnn --model "$tmp/no-such.pt" --out "$tmp/sw-missing-model"
[ ! -e "$tmp/sw-missing-model" ] || fail "sweep with a missing model left its folder"
# A model file that cannot be loaded is refused before any method runs (it was a failed row and exit 0).
echo "not a model" > "$tmp/corrupt.pt"
expect_usage "compare with a corrupt model" "corrupt or not a hulk GNN model file" "$hulk" compare "$tiny" \
  --methods greedy,gnn --model "$tmp/corrupt.pt"
grep -q "greedy" "$tmp/out" && fail "compare ran greedy before refusing the corrupt model"
expect_usage "compare with a folder as the model" "is a folder, not a model file" "$hulk" compare "$tiny" \
  --methods gnn --model "$tmp"
expect_usage "sweep with a corrupt model" "corrupt or not a hulk GNN model file" "$hulk" sweep "$tiny" \
  --set job.utilisation=0.3 --methods gnn --model "$tmp/corrupt.pt" --out "$tmp/sw-corrupt-model"
[ ! -e "$tmp/sw-corrupt-model" ] || fail "sweep with a corrupt model left its folder"
expect_usage "jobs-eval with a corrupt model" "corrupt or not a hulk GNN model file" "$hulk" compare generated --count 1 \
  --methods greedy,gnn --model "$tmp/corrupt.pt"
mkdir -p "$tmp/rp-blocked/reproduce.csv"
expect_usage "reproduce where its CSV is a folder" "reproduce.csv: --out: is a folder where reproduce writes its file" \
  "$hulk" reproduce "$(dirname "$tiny")" --methods greedy --out "$tmp/rp-blocked" --no-plots
[ ! -e "$tmp/rp-blocked/reproduce.json" ] || fail "reproduce wrote reproduce.json before refusing its blocked CSV"
mkdir -p "$tmp/sw-blocked/sweep.csv"
expect_usage "sweep where its CSV is a folder" "sweep.csv: --out: is a folder where sweep writes its rows" \
  "$hulk" sweep "$tiny" --set job.utilisation=0.3 --methods greedy --out "$tmp/sw-blocked"
mkdir -p "$tmp/gd-blocked" && touch "$tmp/gd-blocked/samples"
expect_usage "gen-data where samples is a file" "gd-blocked/samples: cannot create the data set's samples folder" \
  "$hulk" gnn gen-data --count 1 --out "$tmp/gd-blocked"
expect_usage "reproduce with a missing placement file" "cannot open placement file" "$hulk" reproduce \
  "$(dirname "$tiny")" --methods "greedy,file:$tmp/no-such.json" --out "$tmp/rp-missing" --no-plots
expect_usage "jobs-eval --jobs 2-3-4" "--jobs: expected N or MIN-MAX with 2 <= MIN <= MAX <= 8, got '2-3-4'" \
  "$hulk" compare generated --count 1 --jobs 2-3-4
expect_usage "jobs-eval --jobs above --max-gpus" "--jobs: expected at most as many jobs as --max-gpus allows GPUs (5)" \
  "$hulk" compare generated --count 1 --jobs 8 --max-gpus 5
expect_usage "jobs-eval --methods robust" "--methods: robust places the jobs for a scenario's" "$hulk" compare generated --count 1 \
  --methods greedy,robust
# Seeds whose jobs do not fit are skipped with a line each; with none left, the run is refused.
"$hulk" compare generated --count 2 --seed 1 --jobs 8 --max-gpus 8 --methods greedy >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(grep -c "skipped: sampler: no set of jobs fits" "$tmp/err")" -eq 2 ] &&
   tail -n 1 "$tmp/err" | grep -q -- "--jobs: no seed of 1..2 gave a cluster its jobs fit"; then
  ok "jobs-eval with no seed that fits"
else
  fail "jobs-eval with no seed that fits: exit $rc, stderr:"
  cat "$tmp/err"
fi
expect_usage "gen-data --jobs above --max-gpus" "allows GPUs (6), got up to 7" "$hulk" gnn gen-data --count 1 \
  --jobs 2-7 --max-gpus 6 --out "$tmp/gd-jobs-gpus"
[ ! -e "$tmp/gd-jobs-gpus" ] || fail "gen-data --jobs above --max-gpus left its folder"
expect_usage "gen-data --jobs 2.5" "got '2.5'" "$hulk" gnn gen-data --count 1 --jobs 2.5 --out "$tmp/gd-jobs"
expect_usage "a method twice" "'greedy' is listed twice" "$hulk" compare "$tiny" --methods greedy,greedy
expect_usage "a sweep key twice" "key 'job.utilisation' is given twice" "$hulk" sweep "$tiny" \
  --set job.utilisation=0.3 --set job.utilisation=0.4 --out "$tmp/sw-twice"
expect_usage "a sweep value twice" "value '1' of key 'job.iterations' is given twice" "$hulk" sweep "$tiny" \
  --set job.iterations=1,2,1 --out "$tmp/sw-value-twice"
[ ! -e "$tmp/sw-value-twice" ] || fail "a sweep value twice left its folder"
expect_usage "an empty sweep value" "has an empty value" "$hulk" sweep "$tiny" --set job.utilisation=0.3,,0.4 \
  --out "$tmp/sw-empty"
expect_usage "a family twice" "'in-family' is listed twice" "$hulk" gnn families --count 1 --families in-family,in-family
# An empty item in --families is refused as in --methods (`in-family,` was taken as in-family alone).
for families in "in-family," "in-family,,larger" ",in-family"; do
  expect_usage "--families '$families'" "--families: '$families' has an empty item" "$hulk" gnn families --count 1 \
    --families "$families"
done
# --series as --families: an empty list or item, or a series twice, is refused (`--series ''` ran every series).
for series in "" "tiny-a100," "tiny-a100,tiny-a100"; do
  expect_usage "--series '$series'" "--series: " "$hulk" fidelity "$tests/data/fidelity" --series "$series" --quiet
done
# A file given as --paper is named as a file, not as a missing folder.
expect_usage "--paper on a file" "it is a file, not a folder (expected a folder of .yaml scenarios)" "$hulk" \
  gnn families --families paper --paper "$tiny"
expect_usage "a negative seed" "--seed: expected a seed, a whole number >= 0, got '-1'" "$hulk" gnn gen-data --count 1 \
  --seed -1 --out "$tmp/gd-seed"
expect_usage "bench --reps 0" "--reps: '0' is out of range (expected an integer from 1 to 1000)" "$hulk" bench "$tiny" --reps 0 --no-gnn
expect_usage "bench --placement with an empty item" "--placement: 'greedy,,random' has an empty item" "$hulk" bench "$tiny" --simulation-only --reps 1 --placement greedy,,random
expect_usage "bench --placement unknown" "--placement: 'search' is not a placement method here" "$hulk" bench "$tiny" --simulation-only --reps 1 --placement greedy,search
expect_usage "gen-data --max-gpus 3" "--max-gpus: '3' is out of range (expected an integer from 4 to 1000000)" "$hulk" gnn gen-data --count 1 --max-gpus 3 --out "$tmp/gd"
expect_usage "bad --placement" "--placement" "$hulk" simulate "$tiny" --placement greedyy
expect_usage "missing --out of gen-data" "--out" "$hulk" gnn gen-data --count 1
expect_usage "bad --shard" "--shard" "$hulk" sweep "$tiny" --set job.utilisation=0.3 --shard 2/2 --out "$tmp/s"

# A key that only --set brought in is named with its --set, not blamed on a line of the file.
expect_refusal "--set of an unknown key" "job.paralelism: unknown key 'paralelism' (did you mean 'parallelism'?) (from --set job.paralelism.dp=2)" \
  "$hulk" place "$tiny" --set job.paralelism.dp=2

# validate warns (and accepts) a job whose tensor-parallel groups are wider than every host.
sed 's/{dp: 2, tp: 1, pp: 2}/{dp: 1, tp: 4, pp: 2}/' "$tiny" >"$tmp/wide-tp.yaml"  # hosts of 2 GPUs
if grep -q "tp: 4" "$tmp/wide-tp.yaml" && "$hulk" validate "$tmp/wide-tp.yaml" >/dev/null 2>"$tmp/wide.err" &&
  grep -q "tp 4 is wider than the largest host (2 GPUs)" "$tmp/wide.err"; then
  ok "validate warns of TP groups wider than a host"
else
  fail "validate of a wide TP job: $(cat "$tmp/wide.err")"
fi

# The standard output cannot be written (a full disk): not a silent success, one line and exit 1.
if [ -c /dev/full ]; then
  "$hulk" place "$tiny" >/dev/full 2>"$tmp/full.err"
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q "writing the standard output failed" "$tmp/full.err"; then
    ok "stdout on a full disk"
  else
    fail "stdout on a full disk: exit $rc, stderr: $(cat "$tmp/full.err")"
  fi
fi

# An --out file that cannot be written once open (a full disk) is not bad input either: exit 1, one line.
if [ -c /dev/full ]; then
  "$hulk" place "$tiny" --method greedy --out /dev/full >/dev/null 2>"$tmp/fullout.err"
  rc=$?
  if [ "$rc" -eq 1 ] && grep -q "/dev/full: writing the file failed" "$tmp/fullout.err" && [ "$(wc -l <"$tmp/fullout.err")" -eq 1 ]; then
    ok "--out on a full disk"
  else
    fail "--out on a full disk: exit $rc, stderr: $(cat "$tmp/fullout.err")"
  fi
fi

[ "$failures" -eq 0 ] && echo "out_paths: all ok"
exit "$failures"
