# Shared set-up of the CLI test scripts (sourced, not a test itself: ctest registers tests/cli/*.sh only).
# Arguments: HULK_BINARY TESTS_DIR [SOURCE_DIR]. Defines hulk, tests, tiny (the tiny scenario), tmp (removed on
# exit, read-only folders included), failures, fail/ok to report a check, and expect_refusal for a command that
# must fail as bad input; each script reports its own total.
set -u
hulk="$(readlink -f "$1")"
tests="$(readlink -f "$2")"
tiny="$tests/data/tiny/tiny.yaml"
tmp="$(mktemp -d)"
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}
ok() { echo "ok: $1"; }
# expect_refusal NAME PATTERN CMD...: exit 2, exactly one stderr line, matching PATTERN.
expect_refusal() {
  local name="$1" pattern="$2"
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$pattern" "$tmp/err"; then
    ok "$name"
  else
    fail "$name: exit $rc, stderr:"
    cat "$tmp/err"
  fi
}
