#!/usr/bin/env bash
# Bad-input contract of the hulk CLI: for every tests/data/bad/*.yaml, `hulk validate FILE` (or, for files
# marked "# expect-simulate:", `hulk simulate FILE --out DIR`; "# expect-validate:" marks a scenario the loader accepts and
# `hulk validate` refuses, as a placement file it reads) must exit with code 2, print exactly one non-empty
# line on stderr that names the file and contains the expected substring from the file's first line, not dump core,
# and leave no output files behind. Usage: bad_inputs.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
set -u
# Absolute paths: each command runs inside a scratch folder so that a core dump would be caught there.
hulk="$(readlink -f "$1")"
tests="$(readlink -f "$2")"
bad="$tests/data/bad"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
checked=0

fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}

# check NAME EXPECTED_SUBSTRING CMD...: runs CMD in $tmp/run (so a core file would land there) and checks the contract.
check() {
  local name="$1" expected="$2"
  shift 2
  rm -rf "$tmp/run" && mkdir -p "$tmp/run"
  (cd "$tmp/run" && ulimit -c unlimited 2>/dev/null; "$@" >"$tmp/stdout" 2>"$tmp/stderr")
  local rc=$?
  checked=$((checked + 1))
  local lines
  lines=$(grep -c '' "$tmp/stderr")
  if [ "$rc" -ne 2 ]; then fail "$name: exit code $rc (expected 2); stderr: $(head -c 400 "$tmp/stderr")"; return; fi
  if [ "$lines" -ne 1 ]; then fail "$name: $lines lines on stderr (expected exactly 1):"; sed 's/^/    /' "$tmp/stderr" | head -5; return; fi
  local msg
  msg=$(cat "$tmp/stderr")
  if [ -z "${msg// /}" ]; then fail "$name: empty error line"; return; fi
  # Bytes of the input that are not UTF-8 are escaped: the message itself is always valid UTF-8.
  if ! iconv -f UTF-8 -t UTF-8 "$tmp/stderr" >/dev/null 2>&1; then fail "$name: message is not valid UTF-8: $msg"; return; fi
  case "$msg" in *"$name"*) ;; *) fail "$name: message does not name the file: $msg"; return ;; esac
  case "$msg" in *"$expected"*) ;; *) fail "$name: message lacks '$expected': $msg"; return ;; esac
  if ls "$tmp/run" | grep -q '^core'; then fail "$name: core dump"; return; fi
  if [ -d "$tmp/out" ] && [ -n "$(ls -A "$tmp/out")" ]; then fail "$name: files left in the output folder: $(ls -A "$tmp/out")"; return; fi
  echo "ok: $name: $msg"
}

shopt -s nullglob
for f in "$bad"/*.yaml; do
  name="$(basename "$f")"
  first="$(head -n 1 "$f")"
  rm -rf "$tmp/out"
  case "$first" in
    "# expect-simulate: "*)
      check "$name" "${first#\# expect-simulate: }" "$hulk" simulate "$f" --out "$tmp/out" ;;
    "# expect: "*)
      check "$name" "${first#\# expect: }" "$hulk" validate "$f" ;;
    "# expect-validate: "*)
      check "$name" "${first#\# expect-validate: }" "$hulk" validate "$f" ;;
    *)
      fail "$name: first line must be '# expect: ...' or '# expect-simulate: ...'" ;;
  esac
done

# A scenario file that does not exist.
rm -rf "$tmp/out"
check "no-such-scenario.yaml" "not found" "$hulk" validate "$bad/no-such-scenario.yaml"
rm -rf "$tmp/out"
check "no-such-scenario.yaml" "not found" "$hulk" simulate "$bad/no-such-scenario.yaml" --out "$tmp/out"

# A NUL byte on line 2 (binary bytes in a text file): one line naming that line, not yaml-cpp's escape message on
# the line after with the newline it echoed.
printf 'name: x\nseed: 1\0\nplatform: {}\n' >"$tmp/nul-byte.yaml"
rm -rf "$tmp/out"
check "nul-byte.yaml" "nul-byte.yaml:2: contains a NUL byte" "$hulk" validate "$tmp/nul-byte.yaml"

# A Latin-1 byte (0xE9, e-acute) in an events trace: echoed escaped as \xe9, never raw (the line would not be UTF-8).
printf 'time,target,bandwidth\n5s,us~\351u,50%%\n' >"$tmp/latin1-trace.csv"
cat >"$tmp/latin1-trace.yaml" <<'YAML'
name: latin1-trace
platform:
  regions:
    - {name: us, hosts: 2, gpus_per_host: 1, gpu: A100-80GB}
    - {name: eu, hosts: 2, gpus_per_host: 1, gpu: A100-80GB}
  wan:
    default: {bandwidth: 1Gbps, latency: 40ms}
job:
  model: {preset: bert-large}
  global_batch: 8
  micro_batch: 2
  parallelism: {dp: 4}
events:
  - {trace: latin1-trace.csv}
YAML
rm -rf "$tmp/out"
check "latin1-trace.csv" "unknown region '\xe9u'" "$hulk" validate "$tmp/latin1-trace.yaml"

# A folder where a file is read: "is a folder", not a stream error from the first read (without the check: exit 1,
# "internal error: basic_filebuf::underflow ... Is a directory").
mkdir -p "$tmp/as-folder.json" "$tmp/fidelity-folder/measured.yaml"
tiny_scenario="$tests/data/tiny/tiny.yaml"
check "as-folder.json" "placement file is a folder" "$hulk" place "$tiny_scenario" --method "file:$tmp/as-folder.json"
check "as-folder.json" "placement file is a folder" "$hulk" simulate "$tiny_scenario" --placement "file:$tmp/as-folder.json" --out "$tmp/out"
check "measured.yaml" "is a folder" "$hulk" fidelity "$tmp/fidelity-folder"

if [ "$checked" -lt 26 ]; then fail "only $checked cases checked (expected at least 26)"; fi
echo "$checked cases, $failures failures"
[ "$failures" -eq 0 ]
