# Shared set-up of the CLI test scripts (sourced, not a test itself: ctest registers tests/cli/*.sh only).
# Arguments: HULK_BINARY TESTS_DIR [SOURCE_DIR]. Defines hulk, tests, tiny (the tiny scenario), tmp (removed on
# exit, read-only folders included), failures, and fail/ok to report a check; each script reports its own total.
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
