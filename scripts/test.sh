#!/usr/bin/env bash
# Every test: ctest natively and under wasm (Node), Vitest, Playwright in
# headless Chromium, and the bench's smoke run (each group a test). Ends with
# one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
bash scripts/build.sh || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

results=build/test-results
rm -rf "$results" && mkdir -p "$results"

echo "== ctest (native)"
ctest --test-dir build/native --output-on-failure --output-junit "$PWD/$results/ctest-native.xml"
echo "== ctest (wasm, in Node)"
ctest --test-dir build/wasm -j2 --output-on-failure --output-junit "$PWD/$results/ctest-wasm.xml"
echo "== vitest"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json"
echo "== playwright (headless Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME="$PWD/$results/playwright.json" npx playwright test -c tests/browser/playwright.config.js --reporter=list,json
echo "== bench (--smoke: every row once, so the bench cannot rot unseen)"
node scripts/bench/index.mjs --smoke --json "$results/bench-smoke.json" --svg build/bench/smoke.svg

node scripts/test_summary.mjs "$results"
