#!/usr/bin/env bash
# `npm test`: lint, typecheck, import rules, then every test, each phase timed; stops at the first phase that fails.
# Arguments go to vitest (`npm test -- api/src/routes`).
set -uo pipefail
cd "$(dirname "$0")/.."

report=()
phase() {
  local name=$1 start=$SECONDS status
  shift
  echo "== $name: $*"
  "$@"
  status=$?
  report+=("$(printf '%-10s %5d s%s' "$name" $((SECONDS - start)) "$([ $status -eq 0 ] || echo "  (failed, exit $status)")")")
  if [ $status -ne 0 ]; then
    summary
    exit $status
  fi
}
# A phase's files; a browser file (e2e/) that fails is run once more alone: it passes only if it passes then, and the
# summary names it, for a step that races the page's timers (beside another browser, or on a cold first page) is
# a finding to follow up (e2e/README.md). Any other file that fails fails the phase.
with_browser_retry() {
  local name=$1 json failed
  shift
  json=$(mktemp)
  TOPLINE_TEST_PHASE=$name npx vitest run "$@" --reporter=default --reporter=json --outputFile.json="$json" && return 0
  failed=$(node -e '
    const report = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
    const failed = report.testResults.filter((file) => file.status !== "passed").map((file) => file.name);
    const browser = failed.filter((name) => /[/]e2e[/]/.test(name));
    process.stdout.write(browser.length === failed.length ? browser.join(" ") : "");
  ' "$json" 2>/dev/null)
  rm -f "$json"
  [ -n "$failed" ] || return 1
  echo "== $name: browser files that failed, run once more alone: $failed"
  retried+=("$failed")
  TOPLINE_TEST_PHASE=$name npx vitest run "$@" --maxWorkers=1 $failed
}
retried=()
summary() {
  echo "== phase times"
  printf '%s\n' "${report[@]}"
  if [ ${#retried[@]} -gt 0 ]; then echo "== browser files run again alone after failing once: ${retried[*]}"; fi
}

phase lint npm run --silent lint
phase typecheck npm run --silent typecheck
phase depcheck npm run --silent depcheck
if [ $# -eq 0 ]; then
  # The engine, contract, web unit and API files two at a time; the browser files two at a time; then those that time
  # the API against itself, one at a time (vitest.config.ts).
  phase tests env TOPLINE_TEST_PHASE=parallel npx vitest run
  phase browser with_browser_retry browser
  phase serial with_browser_retry serial
else
  phase tests npx vitest run "$@"
fi
summary
