#!/usr/bin/env bash
# The GNN plugin carries its build's identity (tools/plugins/build_id.cmake: a hash of the headers it shares with the
# program, and of the compiler and library versions), and the program refuses a plugin of another build before
# loading it: one line naming the file and both ids, exit 2, no output written. The identity changes with a shared
# header and the generated header is rewritten only when it does.
# Usage: plugin_build_id.sh HULK_BINARY TESTS_DIR SOURCE_DIR
set -u
hulk="$(readlink -f "$1")" tests="$(readlink -f "$2")" src="$(readlink -f "$3")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
scenario="$tests/data/tiny/tiny.yaml"
plugin="$(dirname "$hulk")/libhulk_gnn_plugin.so"

id="$(grep -aoE 'hulk-build-id:[0-9a-f]{16}' "$plugin" | head -1 | cut -d: -f2)"
[ -n "$id" ] || fail "the plugin carries no build id"
other=0123456789abcdef
[ "$id" = "$other" ] && other=fedcba9876543210
# A copy of the plugin with another id (same length: the file stays a loadable library), and one with none.
python3 - "$plugin" "$id" "$other" "$tmp" <<'PY'
import sys
data, old, new, tmp = open(sys.argv[1], 'rb').read(), sys.argv[2].encode(), sys.argv[3].encode(), sys.argv[4]
open(tmp + '/other.so', 'wb').write(data.replace(b'hulk-build-id:' + old, b'hulk-build-id:' + new))
open(tmp + '/none.so', 'wb').write(data.replace(b'hulk-build-id:', b'hulk-build-xx:'))
PY

"$hulk" place "$scenario" --method gnn --out "$tmp/ok.json" >/dev/null 2>"$tmp/err" ||
  { fail "the plugin of this build is refused"; cat "$tmp/err"; }

refused() {  # refused NAME EXPECTED_PLUGIN_ID: the copy is refused with one line naming it and both ids
  HULK_GNN_PLUGIN="$tmp/$1.so" "$hulk" place "$scenario" --method gnn --out "$tmp/$1.json" >/dev/null 2>"$tmp/$1.err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$1: exit $rc, expected 2"
  [ "$(grep -vc '^hulk: warning' "$tmp/$1.err")" -eq 1 ] || { fail "$1: not one line"; cat "$tmp/$1.err"; }
  grep -qF "$tmp/$1.so" "$tmp/$1.err" || fail "$1: the error does not name the plugin file"
  grep -qF "plugin build $2, hulk build $id" "$tmp/$1.err" || { fail "$1: the error does not give both ids"; cat "$tmp/$1.err"; }
  [ -e "$tmp/$1.json" ] && fail "$1: a placement was written with a refused plugin"
}
refused other "$other"
refused none none

# The identity: a hash of the shared headers; the header is rewritten only when it changes.
mkdir -p "$tmp/tree/sim/core" "$tmp/tree/gnn" "$tmp/tree/tools/plugins"
echo "struct A { int x; };" >"$tmp/tree/sim/core/a.hpp"
echo "struct B { int y; };" >"$tmp/tree/gnn/b.hpp"
echo "int f();" >"$tmp/tree/sim/core/a.cpp"
gen() { cmake -DSOURCE_DIR="$tmp/tree" -DOUT="$tmp/id.hpp" -DEXTRA="$1" -P "$src/tools/plugins/build_id.cmake" &&
          grep -oE '"[0-9a-f]{16}"' "$tmp/id.hpp"; }
first="$(gen c1)" || fail "build_id.cmake failed"
touch -d "2000-01-01" "$tmp/id.hpp"
[ "$(gen c1)" = "$first" ] || fail "the same tree and flags gave another id"
[ "$(stat -c %Y "$tmp/id.hpp")" -eq "$(date -d 2000-01-01 +%s)" ] || fail "an unchanged id rewrote the header"
echo "int g();" >"$tmp/tree/sim/core/a.cpp"
[ "$(gen c1)" = "$first" ] || fail "a source file (not shared with the plugin) changed the id"
echo "struct B { long y; };" >"$tmp/tree/gnn/b.hpp"
second="$(gen c1)"
[ "$second" != "$first" ] || fail "a changed gnn/ header kept the id"
[ "$(gen c2)" != "$second" ] || fail "other compiler flags kept the id"
echo "$failures failures"
[ "$failures" -eq 0 ]
