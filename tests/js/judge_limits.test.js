// The judge's own work is bounded up front and linear in what it is given
// (issue 33): a program of 20,000 equations, traced at every signature of a
// check, and 50,000 cases cannot keep it past the time limit (more than
// 1,000 are refused; 1,000 valid ones leave a correct solution its pass); every stage
// it runs on a program (rebuilding, printing, the JSON form, the live
// program, data flow) grows in proportion to the program. The stages'
// figures at 20,000 equations are rows of `npm run bench` (group judge,
// scripts/bench/judge.mjs, whose stages this test times).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { problemById } from '../../web/checker/problems.js';
import { makeRng } from '../../web/checker/rng.js';
import { MAX_CASES } from '../../web/checker/validate_cases.js';
import { exportedChain, judgeStages, timeOnce } from '../../scripts/bench/judge.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shardlab-limits-'));

beforeAll(() => sl.init());

// The fastest of five runs of `f`, in ms.
const fastest = (f) => Math.min(...Array.from({ length: 5 }, () => timeOnce(f)));

test('every stage the judge runs on a program grows in proportion to it: 8 times the equations take well under 64 times as long', async () => {
  const stages = (text) => {
    const { stages: run, dispose } = judgeStages(text);
    const times = Object.fromEntries(Object.entries(run).map(([name, f]) => [name, fastest(f)]));
    dispose();
    return times;
  };
  const small = stages(await exportedChain(2490));
  const large = stages(await exportedChain(19990));
  for (const stage of Object.keys(small)) {
    // Linear: about 8x; quadratic would be 64x. The garbage collector's share grows with the heap
    // a stage builds (JSON of 20,000 equations: up to 1.5x more in a calm run), so the bound is 3 times
    // linear. Both sides are floored at 25 ms: a stage that fast at 20,000 equations is no cost to bound,
    // and below that a garbage collection alone can make a ratio.
    const ratio = Math.max(large[stage], 25) / Math.max(small[stage], 25);
    expect(ratio, `${stage}: ${small[stage].toFixed(1)} ms at 2,500 equations, ${large[stage].toFixed(1)} ms at 20,000`).toBeLessThan(24);
  }
}, 120000);

test('a 20,000-equation solution traced at every signature is judged within the time limit; what is over the budget is rejected unread', () => {
  const solution = join(dir, 'huge.mjs');
  writeFileSync(
    solution,
    `import * as sl from 'shardlab';
export default function ring(x) {
  const mesh = sl.makeMesh([8], ['data']);
  return { out: sl.shardMap((b) => { let y = b; for (let i = 0; i < 19990; i++) y = y.add(b); return y; }, { mesh, inSpecs: sl.P('data'), outSpecs: sl.P('data') })(x) };
}
`,
  );
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['web/checker/cli.js', 'check', 'ring-allreduce-ppermute', solution, '--json', '--time-limit', '30'], { cwd: root, encoding: 'utf8', timeout: 180000 });
  const ms = Date.now() - t0;
  expect(r.status, r.stderr).toBe(1);
  const report = JSON.parse(r.stdout);
  const messages = [...new Set(report.cases.map((c) => c.message))];
  expect(messages).toContain("output 'out' differs from the expected values");
  expect(messages).toContainEqual(expect.stringMatching(/^the solution's programs together are larger than the judge takes in one check \(60000 equations/));
  // The sandbox's tracing is the solution's time (bounded by the limit); the judge adds little to it.
  expect(ms).toBeLessThan(90000);
}, 180000);

test(`more than ${MAX_CASES} cases are refused at once, as a usage error`, () => {
  const x = Array.from({ length: 8 }, (_, i) => [i]);
  const cases = join(dir, 'many.json');
  writeFileSync(cases, JSON.stringify(Array.from({ length: 50000 }, () => ({ input: { x } }))));
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['web/checker/cli.js', 'check', 'ring-allreduce-ppermute', '--cases', cases, '--json'], { cwd: root, encoding: 'utf8', timeout: 60000 });
  expect(r.status).toBe(2);
  expect(r.stderr).toBe(`shardlab: ${cases}: 50000 cases: a check runs at most ${MAX_CASES} (split them over several checks)\n`);
  expect(Date.now() - t0).toBeLessThan(30000);
});

// The judge's runs of the solution's programs count against its time limit (the CLI's devices'
// CPU time): the most cases a check takes must still leave a correct solution its whole verdict.
test.each(['tensor-parallel-mlp', 'data-parallel-step'])(`${MAX_CASES} valid cases of %s: the reference passes at the default time limit`, (id) => {
  const problem = problemById(id);
  const rng = makeRng(1);
  const plain = (v) => (ArrayBuffer.isView(v) ? Array.from(v) : Array.isArray(v) ? v.map(plain) : v);
  const cases = Array.from({ length: MAX_CASES }, () => ({ input: Object.fromEntries(Object.entries(problem.generate(rng)).map(([k, v]) => [k, plain(v)])) }));
  const file = join(dir, `${id}-cases.json`);
  writeFileSync(file, JSON.stringify(cases));
  const r = spawnSync(process.execPath, ['web/checker/cli.js', 'check', id, '--cases', file, '--json'], { cwd: root, encoding: 'utf8', timeout: 120000 });
  expect(r.status, r.stderr).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.cases).toHaveLength(MAX_CASES);
  expect(report.passed).toBe(true);
}, 120000);
