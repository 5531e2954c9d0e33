// What a solution's program prints in a check: the judge prints each
// jax.debug.print of the program it runs from the call's format (the
// sandbox's) and its own values, per case, per device in device order, as
// text in the report (the page's Output tab, the CLI's stderr); the runs a
// requirement makes are not the learner's output; a print in a loop is kept
// within the budget. The values are checked against the case's inputs,
// summed here in float64.
import { beforeAll, expect, test, vi } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { checkSolution } from '../../web/checker/engine.js';
import { MAX_OUTPUT_LINES } from '../../web/checker/case_output.js';
import dataParallel from '../../problems/data-parallel-step/problem.js';
import dataParallelSolution from '../../problems/data-parallel-step/solution.mjs';

const { P, lax, np, debug } = sl;
beforeAll(() => sl.init());

// The reference solution, printing in its body each device's block of x (its rows and their sum) and, after it, the loss.
function printing(w, b, x, y, lr) {
  const mesh = sl.makeMesh([8], ['data']);
  const local = (w, b, x, y) => {
    debug.print('device {} rows {} sum {:.6e}', lax.axisIndex('data'), x.shape[0], np.sum(x));
    const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
    const [wv, bv] = lax.pcast([w, b], 'data', { to: 'varying' });
    const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(wv, bv);
    const [mw, mb, ml] = lax.pmean([gw, gb, l], 'data');
    return { w: w.sub(mw.mul(lr)), b: b.sub(mb.mul(lr)), loss: ml };
  };
  const out = sl.shardMap(local, { mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: P() })(w, b, x, y);
  debug.print('loss {}', out.loss);
  return out;
}

test('each case shows what its run printed: every device its block, in device order, then the loss, as the values the judge computed', async () => {
  const log = vi.spyOn(console, 'log');
  const r = await checkSolution(dataParallel, printing, { seed: 7 });
  expect(log).not.toHaveBeenCalled(); // nothing printed where the solution was traced, nor by the judge itself
  log.mockRestore();
  expect(r.passed).toBe(true);
  for (const [i, c] of r.cases.entries()) {
    const x = r.caseValues[i].input.x;
    const rows = x.length / 8;
    const lines = c.output.split('\n');
    expect(lines).toHaveLength(9);
    for (let d = 0; d < 8; d++) {
      const m = /^device (\d) rows (\d+) sum (\S+)$/.exec(lines[d]);
      expect(m, lines[d]).not.toBeNull();
      expect([Number(m[1]), Number(m[2])]).toEqual([d, rows]);
      const sum = x.slice(d * rows, (d + 1) * rows).flat().reduce((a, v) => a + v, 0);
      expect(Math.abs(Number(m[3]) - sum)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(sum))); // float32 sums, 6 digits printed
    }
    expect(lines[8]).toMatch(/^loss \S+$/);
    expect(Number(lines[8].slice(5))).toBeCloseTo(r.caseValues[i].actual.loss.value, 5); // the loss it returned, printed at float32's shortest digits
  }
});

test('a print in a long loop keeps the first lines and counts the rest; a solution that prints nothing has no output', async () => {
  const chatty = (w, b, x, y, lr) => {
    const out = dataParallelSolution(w, b, x, y, lr);
    return { ...out, loss: lax.foriLoop(0, 500, (k, acc) => (debug.print('step {}', k), acc), out.loss) };
  };
  const r = await checkSolution(dataParallel, chatty, { seed: 7 });
  const lines = r.cases[0].output.split('\n');
  expect(lines).toHaveLength(MAX_OUTPUT_LINES + 1);
  expect(lines.slice(0, 3)).toEqual(['step 0', 'step 1', 'step 2']);
  expect(lines.at(-1)).toBe(`… and ${500 - MAX_OUTPUT_LINES} more lines, not kept`);
  const quiet = await checkSolution(dataParallel, dataParallelSolution, { seed: 7 });
  expect(quiet.cases.map((c) => c.output)).toEqual(quiet.cases.map(() => null));
});

test('printing the blocks in a shard_map of its own (returning them as received) keeps a correct solution correct: its output is x to every requirement', async () => {
  const mesh = sl.makeMesh([8], ['data']);
  const show = sl.shardMap((xs) => (debug.print('block {}', xs), xs), { mesh, inSpecs: P('data'), outSpecs: P('data') });
  const r = await checkSolution(dataParallel, (w, b, x, y, lr) => dataParallelSolution(w, b, show(x), y, lr), { seed: 7 });
  expect(r.requirements.filter((q) => !q.passed)).toEqual([]);
  expect(r.passed).toBe(true);
  expect(r.cases[0].output.split('\n')).toHaveLength(8);
});

test("a solution's jax.debug.callback is not run by the judge, and its output says so; its prints still print", async () => {
  const calling = (w, b, x, y, lr) => {
    const out = dataParallelSolution(w, b, x, y, lr);
    debug.callback(() => {
      throw new Error('the judge must never run this');
    }, out.loss);
    debug.print('loss {:.3f}', out.loss);
    return out;
  };
  const r = await checkSolution(dataParallel, calling, { seed: 7 });
  expect(r.passed).toBe(true);
  expect(r.cases[0].output).toMatch(/^loss \d+\.\d{3}\n\(1 jax\.debug\.callback call not run: the judge runs none of a solution's functions, only its prints\)$/);
});
