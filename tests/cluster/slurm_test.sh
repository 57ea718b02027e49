#!/bin/bash
# The Slurm recipes of tools/cluster/, run for real: starts a private single-node Slurm (munged, slurmctld, slurmd,
# all as root, every file in a temp dir, spare ports), submits a 2-shard sweep of tests/data/tiny/tiny.yaml with
# its merge job (tools/cluster/submit-sweep.sh --wait), and checks that the merged sweep.csv equals an unsharded
# `hulk sweep` row for row. Every daemon it started is stopped on exit, whatever happens.
# If Slurm cannot be started (not root, packages missing) the test FAILS: tools/scripts/install-deps.sh installs
# slurm-wlm and munge, and CI runs as root; a silent pass would hide that the recipes were never run.
# Usage: slurm_test.sh HULK TESTS_DIR SOURCE_DIR
set -uo pipefail
hulk=$(readlink -f "$1") tests=$(readlink -f "$2") src=$(readlink -f "$3")
fail() { echo "FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "the Slurm test must run as root (slurmd and slurmctld run as root here); CI runs as root"
for tool in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null || fail "'$tool' not found: run tools/scripts/install-deps.sh (installs slurm-wlm and munge)"
done

work=$(mktemp -d /tmp/hulk-slurm.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  # Jobs first (a failed run may leave some), so no slurmstepd outlives its slurmd; SLURM_CONF makes scancel talk
  # to this test's private controller only.
  [ -n "${SLURM_CONF:-}" ] && timeout 10 scancel --quiet --full -u root 2>/dev/null && sleep 1
  # Only the daemons this test started, by their pid; then wait so no port or socket outlives the test.
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT
dump_logs() { for f in "$work"/log/*.log; do echo "--- $f" >&2; tail -n 30 "$f" >&2; done; }

# A port that nothing listens on now (two consecutive ones: slurmctld and slurmd).
free_port() {
  local p
  for p in $(seq "$1" 2 "$(($1 + 2000))"); do
    if ! (exec 3<>/dev/tcp/127.0.0.1/"$p") 2>/dev/null && ! (exec 3<>/dev/tcp/127.0.0.1/"$((p + 1))") 2>/dev/null; then
      echo "$p"; return 0
    fi
  done
  return 1
}
port=$(free_port $((20000 + RANDOM % 20000))) || fail "no free port pair found"

mkdir -p "$work"/{munge,log,state,spool,run,sweep}
# munge: a private key and socket, so the machine's own munge (if any) is neither used nor changed.
mungekey --create --keyfile="$work/munge/munge.key" --force 2>/dev/null \
  || dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$work/munge/munge.key"
munged --force --foreground --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
  --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/seed" >"$work/log/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/munge/munge.sock" ] || { dump_logs; fail "munged did not start"; }

node=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=hulktest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SwitchType=switch/none
PlugStackConfig=$work/plugstack.conf
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=hulk Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
: > "$work/plugstack.conf"

slurmctld -D -i -f "$SLURM_CONF" >>"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >>"$work/log/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 120); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null | head -n 1)
  case "$state" in idle*|mixed*|allocated*) break;; esac
  sleep 0.5
done
case "$state" in idle*|mixed*|allocated*) ;; *) dump_logs; fail "the node never became idle (state '$state')";; esac
echo "slurm up: node $node ($cpus CPUs), ports $port/$((port + 1))"

# The unsharded reference, then the same sweep as a 2-task array + merge job.
args=(--set wan.default.bandwidth=1Gbps,10Gbps --methods round-robin,greedy)
"$hulk" sweep "$tests/data/tiny/tiny.yaml" --out "$work/full" "${args[@]}" 2>/dev/null || fail "unsharded sweep failed"
export HULK="$hulk"
if ! (cd "$work" && timeout 300 "$src/tools/cluster/submit-sweep.sh" --wait 2 "$tests/data/tiny/tiny.yaml" \
      "$work/sweep" "${args[@]}"); then
  for f in "$work"/sweep/slurm-*.out; do echo "--- $f" >&2; cat "$f" >&2; done
  dump_logs
  fail "the Slurm sweep (array + merge) did not succeed"
fi
ls "$work/sweep"/sweep.shard-0-of-2.csv "$work/sweep"/sweep.shard-1-of-2.csv >/dev/null || fail "shard CSVs missing"
[ -s "$work/sweep/sweep.csv" ] || fail "merge job wrote no sweep.csv"

# Row for row, every column but method_wall_s (a wall-clock time, different on every run).
strip_wall() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "method_wall_s") w = i }
           { out = ""; for (i = 1; i <= NF; i++) if (i != w) out = out (i > 1 && !(w == 1 && i == 2) ? "," : "") $i; print out }' "$1"
}
rows=$(($(wc -l < "$work/full/sweep.csv") - 1))
[ "$rows" = 4 ] || fail "the unsharded sweep has $rows rows, expected 4 (2 values x 2 methods)"
if ! diff <(strip_wall "$work/full/sweep.csv") <(strip_wall "$work/sweep/sweep.csv"); then
  fail "merged Slurm sweep differs from the unsharded run"
fi
echo "ok: Slurm array (2 shards) + afterok merge = unsharded sweep ($rows rows)"

# gen-data as a 2-task array: the samples (one file each) and the manifest equal an unsharded run's, byte for byte.
gen=(--count 4 --budget 100 --max-gpus 8 --seed 5)
"$hulk" gnn gen-data --out "$work/data-full" "${gen[@]}" 2>/dev/null || fail "unsharded gen-data failed"
if ! (cd "$work" && timeout 300 sbatch --wait --quiet --array=0-1 --output="$work/log/gen-%A_%a.out" \
      "$src/tools/cluster/gen-data.sbatch" "$work/data-slurm" "${gen[@]}"); then
  for f in "$work"/log/gen-*.out; do echo "--- $f" >&2; cat "$f" >&2; done
  fail "the Slurm gen-data array did not succeed"
fi
[ "$(ls "$work/data-full/samples" | wc -l)" = 4 ] || fail "unsharded gen-data did not write 4 samples"
diff -r "$work/data-full" "$work/data-slurm" || fail "Slurm gen-data shards differ from the unsharded run"

# A failed shard: the afterok merge never runs, and submit-sweep.sh --wait says so (sbatch --wait alone exits 0
# for the cancelled merge job).
cat >"$work/failing-hulk" <<WRAP
#!/bin/bash
for a in "\$@"; do [ "\$a" = 1/2 ] && { echo "failing-hulk: shard 1/2 fails on purpose" >&2; exit 1; }; done
exec "$hulk" "\$@"
WRAP
chmod +x "$work/failing-hulk"
if (cd "$work" && HULK="$work/failing-hulk" timeout 300 "$src/tools/cluster/submit-sweep.sh" --wait 2 \
      "$tests/data/tiny/tiny.yaml" "$work/broken" "${args[@]}" >"$work/log/broken.out" 2>&1); then
  cat "$work/log/broken.out" >&2
  fail "submit-sweep.sh --wait succeeded although shard 1 failed"
fi
[ -e "$work/broken/sweep.csv" ] && fail "the merge ran although shard 1 failed"
grep -q "did not complete" "$work/log/broken.out" || { cat "$work/log/broken.out" >&2; fail "no message naming the failed merge"; }
echo "ok: a failed shard cancels the merge and submit-sweep.sh --wait fails"
echo "PASS: Slurm sweep array + merge and gen-data array equal their unsharded runs; a failed shard blocks the merge"
