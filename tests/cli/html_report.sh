#!/usr/bin/env bash
# compare --html and reproduce --html opened in a real headless browser: chromium loads each report from disk and
# the DOM it built must hold the methods' table rows, one SVG picture per method that placed, the reproduce verdict
# and scenario rows; a screenshot of each must be a PNG (HULK_HTML_SHOTS=DIR keeps them there to look at). Also a
# Hugging Face config.json model end to end (hulk validate on the bundled Llama-2-7B scenario, a bad config's one
# line). Skips (exit 77, ctest SKIP_RETURN_CODE) only when chromium is not installed.
# Usage: html_report.sh HULK_BINARY TESTS_DIR [SOURCE_DIR]
source "$(dirname "$0")/lib/common.bash"
src="$(readlink -f "${3:-$tests/..}")"

# A Hugging Face config: the bundled scenario validates; a config with a syntax error is one line naming it.
llama="$src/scenarios/models/llama-2-7b.yaml"
"$hulk" validate "$llama" >"$tmp/llama.out" 2>&1 && ok "llama-2-7b validates" ||
  { fail "llama-2-7b.yaml does not validate:"; cat "$tmp/llama.out"; }
mkdir -p "$tmp/bad-model"
printf '{\n  "model_type": "llama",\n  "num_hidden_layers": 2,,\n}\n' >"$tmp/bad-model/config.json"
expect_refusal "a config.json with a syntax error" "bad-model/config.json:3: JSON syntax error.*hf_config" \
  "$hulk" validate "$llama" --set "job.model.hf_config=$tmp/bad-model/config.json"

# The reports (greedy and search: two rows, two pictures).
"$hulk" compare "$tiny" --methods greedy,search --html "$tmp/compare.html" --quiet >"$tmp/compare.out" 2>&1 ||
  { fail "compare --html failed:"; cat "$tmp/compare.out"; }
mkdir -p "$tmp/scenarios"
cp "$tiny" "$tmp/scenarios/tiny.yaml"
"$hulk" reproduce "$tmp/scenarios" --out "$tmp/rep" --methods greedy,search --no-plots --quiet \
  --html "$tmp/reproduce.html" >"$tmp/reproduce.out" 2>&1 ||
  { fail "reproduce --html failed:"; cat "$tmp/reproduce.out"; }
grep -q "<script\|<link\|src=\"http" "$tmp/compare.html" "$tmp/reproduce.html" &&
  fail "a report loads an asset or a script"

browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "SKIP: chromium is not installed (tools/scripts/install-deps.sh installs it): the reports were not opened in a browser"
  echo "$failures failures"
  [ "$failures" -eq 0 ] && exit 77
  exit 1
fi
# open NAME: the DOM chromium built from $tmp/NAME.html in $tmp/NAME.dom, a screenshot in $tmp/NAME.png.
open_in_browser() {
  local flags=(--headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile-$1" --hide-scrollbars)
  local page="file://$tmp/$1.html" err="$tmp/$1.browser.err"
  timeout 120 "$browser" "${flags[@]}" --dump-dom "$page" >"$tmp/$1.dom" 2>"$err" ||
    { fail "chromium --dump-dom of $1.html failed:"; tail -5 "$err"; }
  timeout 120 "$browser" "${flags[@]}" --window-size=1280,1400 --screenshot="$tmp/$1.png" "$page" \
    >/dev/null 2>>"$err" ||
    { fail "chromium --screenshot of $1.html failed:"; tail -5 "$err"; }
  [ "$(head -c 4 "$tmp/$1.png" 2>/dev/null | tail -c 3)" = "PNG" ] && ok "$1.png is a PNG" ||
    fail "no PNG screenshot of $1"
  if [ -n "${HULK_HTML_SHOTS:-}" ]; then
    mkdir -p "$HULK_HTML_SHOTS" && cp "$tmp/$1.png" "$tmp/$1.html" "$HULK_HTML_SHOTS/"
  fi
}
# expect_count FILE PATTERN N WHAT
expect_count() {
  local n
  n="$(grep -o -- "$2" "$1" | wc -l)"
  [ "$n" -eq "$3" ] && ok "$4: $n" || fail "$4: $n in the DOM, expected $3"
}

open_in_browser compare
expect_count "$tmp/compare.dom" '<tr class="method-row' 2 "compare: method rows"
expect_count "$tmp/compare.dom" '<svg' 2 "compare: one picture per method"
# 8 GPUs per picture, 4 of them running a rank (dp 2 x pp 2), each labelled with its stage.
expect_count "$tmp/compare.dom" '<g class="gpu">' 8 "compare: GPU cells holding a rank"
grep -q '<td class="name">search</td>' "$tmp/compare.dom" && ok "compare: search row" || fail "compare: no search row"

open_in_browser reproduce
expect_count "$tmp/reproduce.dom" '<tr class="scenario-row">' 1 "reproduce: scenario rows"
expect_count "$tmp/reproduce.dom" '<svg' 2 "reproduce: one picture per method"
grep -q 'class="verdict' "$tmp/reproduce.dom" && ok "reproduce: verdict" || fail "reproduce: no verdict"

echo "$failures failures"
[ "$failures" -eq 0 ]
