#!/usr/bin/env bash
# `cmake --install` gives a program that finds its data through its prefix (sim/core/data_dir.hpp): the installed
# tree, copied elsewhere, validates, simulates and places with the GNN on a bundled scenario from another working
# directory, with $HULK_DATA_DIR unset and the source tree hidden, and writes the build tree's bytes. A missing data
# file is one line naming the file and where it was looked for, exit 2.
# Usage: install_test.sh CMAKE BUILD_DIR HULK_BINARY TESTS_DIR SOURCE_DIR
cmake="$1" build="$(readlink -f "$2")" src="$(readlink -f "$5")"
source "$(dirname "$0")/../cli/lib/common.bash" "$3" "$4"
tmp="$(readlink -f "$tmp")"  # compared with the paths the program reads from /proc/self/exe
unset HULK_DATA_DIR HULK_GNN_PLUGIN
work="$tmp/elsewhere" empty="$tmp/empty"
mkdir -p "$work" "$empty"

"$cmake" --install "$build" --prefix "$tmp/first" >/dev/null || fail "cmake --install"
for f in bin/hulk bin/libhulk_gnn_plugin.so share/hulk/platforms/gpus.yaml share/hulk/platforms/models.yaml \
  share/hulk/models/hulk-gnn.pt share/hulk/scenarios/examples/quickstart.yaml share/hulk/scenarios/paper/ASSUMPTIONS.md \
  share/hulk/scenarios/validation/measured.yaml share/hulk/tools/scripts/plot.py; do
  [ -f "$tmp/first/$f" ] || fail "not installed: $f"
done
# The prefix moved after installing: the data is found from the program's path, not from the prefix given to cmake.
cp -a "$tmp/first" "$tmp/moved" && rm -rf "$tmp/first"
p="$tmp/moved"
qs="$p/share/hulk/scenarios/examples/quickstart.yaml"

# in_hiding CMD...: CMD run in $work with an empty folder mounted over the source tree (a private mount namespace),
# so that nothing can be read from it; where unshare is refused, run in $work with the tree in sight (the marker GPU
# below still tells which data was read).
if unshare -rm true 2>/dev/null; then
  in_hiding() { unshare -rm bash -c 'mount --bind "$1" "$2" && cd "$3" && shift 3 && exec "$@"' _ "$empty" "$src" "$work" "$@"; }
  in_hiding test -e "$src/platforms" && fail "the source tree is still visible inside the private mount namespace"
else
  echo "note: unshare -rm refused here; the source tree stays visible"
  in_hiding() { (cd "$work" && "$@"); }
fi

# The installed catalog gets a GPU the source tree's lacks: a scenario naming it validates only on the installed data.
printf '  - {name: InstalledCopyOnly, fp16: 312Tf, fp32: 19.5Tf, memory: 80GB, source: "install test"}\n' \
  >>"$p/share/hulk/platforms/gpus.yaml"
sed 's/gpu: A100-80GB/gpu: InstalledCopyOnly/' "$qs" >"$work/marker.yaml"
in_hiding "$p/bin/hulk" validate marker.yaml >/dev/null 2>"$tmp/err" || { fail "installed validate (marker GPU)"; cat "$tmp/err"; }
(cd "$work" && "$hulk" validate marker.yaml >/dev/null 2>&1) && fail "the build tree's hulk knows the marker GPU"

in_hiding "$p/bin/hulk" validate "$qs" >/dev/null 2>"$tmp/err" || { fail "installed validate"; cat "$tmp/err"; }
in_hiding "$p/bin/hulk" simulate "$qs" --out qs >/dev/null 2>"$tmp/err" || { fail "installed simulate"; cat "$tmp/err"; }
"$hulk" simulate "$src/scenarios/examples/quickstart.yaml" --out "$tmp/ref" >/dev/null 2>&1 || fail "build-tree simulate"
cmp -s "$work/qs/result.json" "$tmp/ref/result.json" || fail "installed and build-tree result.json differ"
# The committed model and the plugin beside the installed program.
in_hiding "$p/bin/hulk" place "$qs" --method gnn --out gnn.json >/dev/null 2>"$tmp/err" || { fail "installed gnn"; cat "$tmp/err"; }
"$hulk" place "$src/scenarios/examples/quickstart.yaml" --method gnn --out "$tmp/gnn.json" >/dev/null 2>&1 || fail "build-tree gnn"
cmp -s "$work/gnn.json" "$tmp/gnn.json" || fail "installed and build-tree gnn placements differ"

# Missing data: one line, exit 2, naming the file and where it was looked for.
expect_refusal "HULK_DATA_DIR without the data" "platforms/gpus.yaml is missing (looked in $empty, from \$HULK_DATA_DIR" \
  env HULK_DATA_DIR="$empty" "$p/bin/hulk" validate "$qs"
cp -a "$p" "$tmp/no-models" && rm -r "$tmp/no-models/share/hulk/models"
expect_refusal "no installed model" "models/hulk-gnn.pt is missing (looked in $tmp/no-models/share/hulk, the installed data" \
  in_hiding "$tmp/no-models/bin/hulk" place "$qs" --method gnn --out no-model.json
[ -e "$work/no-model.json" ] && fail "a placement was written without the model"
cp -a "$p" "$tmp/no-data" && rm -r "$tmp/no-data/share"
if unshare -rm true 2>/dev/null; then  # without its data, an installed program falls back to the (here hidden) source tree
  expect_refusal "no installed data" "looked in $src, the source tree .*no $tmp/no-data/share/hulk/platforms" \
    in_hiding "$tmp/no-data/bin/hulk" validate "$qs"
fi
echo "$failures failures"
[ "$failures" -eq 0 ]
