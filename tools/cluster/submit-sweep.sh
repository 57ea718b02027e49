#!/bin/bash
# Submits a sharded sweep as a Slurm job array plus a merge job that runs only if every shard succeeded:
#   tools/cluster/submit-sweep.sh [--wait] N SCENARIO OUT [hulk sweep options]
# Prints the two job ids. With --wait, sbatch blocks until the merge job ends and this script exits with its
# status (a failed shard cancels the merge: afterok is never satisfied, and Slurm's kill_invalid_depend or
# `scancel` removes it). Extra sbatch options (partition, account, time) go in SBATCH_* environment variables.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
wait=""
if [ "${1:-}" = "--wait" ]; then wait="--wait"; shift; fi
if [ $# -lt 3 ]; then echo "usage: submit-sweep.sh [--wait] N SCENARIO OUT [hulk sweep options]" >&2; exit 2; fi
n=$1 scenario=$2 out=$3
shift 3
case "$n" in ''|*[!0-9]*|0) echo "submit-sweep.sh: N must be a positive integer, not '$n'" >&2; exit 2;; esac
mkdir -p "$out"
array=$(sbatch --parsable --array=0-$((n - 1)) --output="$out/slurm-%A_%a.out" \
  "$here/sweep.sbatch" "$scenario" "$out" "$@")
array=${array%%;*}
echo "sweep array job: $array ($n shards)"
merge_cmd=(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes --output="$out/slurm-merge-%j.out")
if [ -n "$wait" ]; then
  echo "merge job: waiting (sbatch --wait)"
  rc=0
  merge=$("${merge_cmd[@]}" --wait "$here/sweep-merge.sbatch" "$out") || rc=$?
  merge=${merge%%;*}
  # sbatch --wait exits 0 for a merge job cancelled because a shard failed (its afterok can never be met), so the
  # job's final state decides; the controller keeps finished jobs for MinJobAge (300 s by default).
  state=$(scontrol show job -o "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  echo "merge job: $merge $state"
  if [ "$rc" != 0 ] || [ "$state" != COMPLETED ]; then
    echo "submit-sweep.sh: the merge job $merge did not complete (${state:-state unknown}, sbatch exit $rc):" \
         "a shard failed? see $out/slurm-${array}_*.out" >&2
    exit 1
  fi
else
  merge=$("${merge_cmd[@]}" "$here/sweep-merge.sbatch" "$out")
  echo "merge job: ${merge%%;*} (runs after $array succeeds)"
fi
