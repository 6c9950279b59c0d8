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
summary() {
  echo "== phase times"
  printf '%s\n' "${report[@]}"
}

phase lint npm run --silent lint
phase typecheck npm run --silent typecheck
phase depcheck npm run --silent depcheck
if [ $# -eq 0 ]; then
  # The engine, contract, web unit and API files two at a time; the browser files two at a time; then those that time
  # the API against itself, one at a time (vitest.config.ts).
  phase tests env TOPLINE_TEST_PHASE=parallel npx vitest run
  phase browser env TOPLINE_TEST_PHASE=browser npx vitest run
  phase serial env TOPLINE_TEST_PHASE=serial npx vitest run
else
  phase tests npx vitest run "$@"
fi
summary
