// Reads the result files of every test runner and prints one closing line,
// "N passed, N failed"; exits 1 if anything failed or a runner left no result.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'build/test-results';
let passed = 0;
let failed = 0;
const problems = [];

function junit(file, label) {
  const path = join(dir, file);
  if (!existsSync(path)) {
    problems.push(`${label}: no results (the runner did not finish)`);
    failed += 1;
    return;
  }
  const xml = readFileSync(path, 'utf8');
  const suite = xml.match(/<testsuite\b[^>]*>/)?.[0] ?? '';
  const attr = (name) => Number(suite.match(new RegExp(`\\b${name}="(\\d+)"`))?.[1] ?? 0);
  const total = attr('tests');
  const bad = attr('failures') + attr('errors');
  if (total === 0) problems.push(`${label}: ran no test`);
  passed += total - bad - attr('skipped') - attr('disabled');
  failed += bad;
  console.log(`${label}: ${total - bad} passed, ${bad} failed`);
}

function json(file, label, count) {
  const path = join(dir, file);
  if (!existsSync(path)) {
    problems.push(`${label}: no results (the runner did not finish)`);
    failed += 1;
    return;
  }
  const [p, f] = count(JSON.parse(readFileSync(path, 'utf8')));
  if (p + f === 0) problems.push(`${label}: ran no test`);
  passed += p;
  failed += f;
  console.log(`${label}: ${p} passed, ${f} failed`);
}

junit('ctest-native.xml', 'ctest native');
junit('ctest-wasm.xml', 'ctest wasm');
json('vitest.json', 'vitest', (r) => [r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0)]);
json('playwright.json', 'playwright', (r) => [r.stats.expected + (r.stats.flaky ?? 0), r.stats.unexpected]);
// Each bench group that ran its rows is a test passed, each that failed one failed.
json('bench-smoke.json', 'bench smoke', (r) => [r.ran.length, r.failed.length]);

for (const p of problems) console.log(`problem: ${p}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || problems.length > 0 ? 1 : 0);
