#!/usr/bin/env bash
# The CLI's verbs: topic commands nested under their topic (gnn, sweep merge, plan eval, compare generated), a
# near-miss nested name gets "did you mean", a parent with nested commands still requires its own arguments, and the
# former top-level names run the same command after one notice line.
# Usage: command_names.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
source "$(dirname "$0")/lib/common.bash" "$@"

# The top level lists the few verbs, and no former name.
"$hulk" --help >"$tmp/help" || fail "hulk --help"
for verb in validate simulate place compare sweep reproduce plan fidelity gnn bench; do
  grep -qE "^  $verb " "$tmp/help" || fail "hulk --help does not list $verb"
done
for old in gen-data train gnn-eval gnn-families sweep-merge plan-eval jobs-eval; do
  grep -qE "^  $old " "$tmp/help" && fail "hulk --help still lists $old"
done
for nested in "gnn gen-data" "gnn train" "gnn eval" "gnn families" "sweep merge" "plan eval" "compare generated"; do
  # shellcheck disable=SC2086
  "$hulk" $nested --help >/dev/null 2>&1 || fail "hulk $nested --help"
done

expect_refusal "near-miss nested name" "unknown command 'trian' of gnn (did you mean 'train'?)" "$hulk" gnn trian
expect_refusal "a group alone" "A subcommand is required" "$hulk" gnn
expect_refusal "sweep without its scenario" "scenario is required (see hulk sweep --help)" "$hulk" sweep
expect_refusal "sweep without --set" "--set is required" "$hulk" sweep "$tiny" --out "$tmp/sw"
expect_refusal "plan without --out" "--out is required (see hulk plan --help)" "$hulk" plan "$tiny"
expect_refusal "compare without its scenario" "scenario is required" "$hulk" compare
expect_refusal "nested command's own option" "unknown option '--bogus' of merge" "$hulk" sweep merge "$tmp" --bogus

# A former name: one notice line, then the very command it names (same stdout, same exit code).
"$hulk" compare generated --count 1 --jobs 2-3-4 >"$tmp/new.out" 2>"$tmp/new.err"
new_rc=$?
"$hulk" jobs-eval --count 1 --jobs 2-3-4 >"$tmp/old.out" 2>"$tmp/old.err"
old_rc=$?
[ "$new_rc" -eq 2 ] && [ "$old_rc" -eq 2 ] || fail "jobs-eval / compare generated: exit $old_rc / $new_rc, expected 2"
head -n 1 "$tmp/old.err" | grep -q "^hulk: note: \`hulk jobs-eval\` is now \`hulk compare generated\`" ||
  fail "former name without its notice: $(head -n 1 "$tmp/old.err")"
diff <(tail -n +2 "$tmp/old.err") "$tmp/new.err" >/dev/null || fail "a former name did not run the same command"
"$hulk" gnn-families --help >/dev/null 2>&1 || fail "hulk gnn-families --help (former name)"
[ "$failures" -eq 0 ] && echo "command_names: all ok"
exit "$failures"
