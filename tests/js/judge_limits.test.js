// The judge's own work is bounded up front and linear in what it is given
// (issue 33): a program of 20,000 equations, traced at every signature of a
// check, and 50,000 cases cannot keep it past the time limit; every stage
// it runs on a program (rebuilding, printing, the JSON form, the live
// program, data flow) grows in proportion to the program. The stages'
// figures at 20,000 equations are a row of `npm run bench` (judge-stages).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { dependents } from '../../web/checker/jaxpr_query.js';
import { liveProgram } from '../../web/checker/live_program.js';
import { MAX_CASES } from '../../web/checker/validate_cases.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'shardlab-limits-'));

beforeAll(() => sl.init());

// A program of about `n` equations inside a shard_map: a chain of adds on each device's block.
async function exportedChain(n) {
  const mesh = sl.makeMesh([8], ['data']);
  const f = (x) => ({ out: sl.shardMap((b) => Array.from({ length: n }, () => 0).reduce((y) => y.add(1), b), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P('data') })(x) });
  const e = sl.export.export(f)(new sl.ShapeDtypeStruct([8, 4]));
  try {
    return await e.serialize();
  } finally {
    e.dispose();
  }
}

// The fastest of five runs of `f`, in ms.
function fastest(f) {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

test('every stage the judge runs on a program grows in proportion to it: 4 times the equations take well under 16 times as long', async () => {
  const stages = (text) => {
    const d = sl.export.deserialize(text);
    const j = d.jaxpr();
    const json = j.toJSON();
    const live = liveProgram(json);
    const times = {
      deserialize: fastest(() => sl.export.deserialize(text).dispose()),
      'jaxpr (text, JSON, bodies)': fastest(() => d.jaxpr()),
      toJSON: fastest(() => j.toJSON()),
      liveProgram: fastest(() => liveProgram(json)),
      dependents: fastest(() => dependents(live, live.invars[0].name)),
      loweredJSON: fastest(() => d.loweredJSON()),
    };
    d.dispose();
    return times;
  };
  const small = stages(await exportedChain(4990));
  const large = stages(await exportedChain(19990));
  for (const stage of Object.keys(small)) {
    // Linear: about 4x; quadratic would be 16x. Both are floored at 25 ms: a stage that fast at 20,000
    // equations is no cost to bound, and below that a garbage collection alone can make a ratio.
    const ratio = Math.max(large[stage], 25) / Math.max(small[stage], 25);
    expect(ratio, `${stage}: ${small[stage].toFixed(1)} ms at 5,000 equations, ${large[stage].toFixed(1)} ms at 20,000`).toBeLessThan(8);
  }
}, 120000);

test('a 20,000-equation solution traced at every signature is judged within the time limit; what is over the budget is rejected unread', () => {
  const solution = join(dir, 'huge.mjs');
  writeFileSync(
    solution,
    `import * as sl from 'shardlab';
export default function ring(x) {
  const mesh = sl.makeMesh([8], ['data']);
  return { out: sl.shardMap((b) => { let y = b; for (let i = 0; i < 19990; i++) y = y.add(0); return y; }, { mesh, inSpecs: sl.P('data'), outSpecs: sl.P('data') })(x) };
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
