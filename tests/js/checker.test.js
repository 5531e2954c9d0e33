// The checker engine on the problems: reference solutions pass; known-wrong
// solutions fail, each for the right reason (the requirement or the case
// that catches it); generated cases stay within the constraints.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { casesOf, checkSolution, GENERATED_CASES } from '../../web/checker/engine.js';
import { checkInput } from '../../web/checker/validate_cases.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import dataParallel from '../../problems/data-parallel-step/problem.js';
import dataParallelSolution from '../../problems/data-parallel-step/solution.mjs';
import tensorParallel from '../../problems/tensor-parallel-mlp/problem.js';
import tensorParallelSolution from '../../problems/tensor-parallel-mlp/solution.mjs';

const { P, lax } = sl;
beforeAll(() => sl.init());

const failed = (report) => ({
  requirements: report.requirements.filter((r) => !r.passed).map((r) => r.id),
  cases: report.cases.filter((c) => !c.passed).length,
});

// A data-parallel step with one thing changed (the options say what).
function step({ pcast = true, reduce = 'pmean', captureX = false, splitX = true, concreteLr = false } = {}) {
  return (w, b, x, y, lr) => {
    const mesh = sl.makeMesh([8], ['data']);
    const rate = concreteLr ? Number(lr) : lr;
    const local = (w, b, xs, ys) => {
      // Closing over the whole batch instead of using the blocks.
      const [xb, yb] = captureX ? [x, y] : [xs, ys];
      const loss = (w, b) => xb.matmul(w).add(b).sub(yb).square().sum().div(xb.shape[0]);
      const [wv, bv] = pcast ? lax.pcast([w, b], 'data', { to: 'varying' }) : [w, b];
      const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(wv, bv);
      const avg = (v) => (reduce === 'pmean' ? lax.pmean(v, 'data') : lax.psum(v, 'data'));
      const [mw, mb, ml] = [avg(gw), avg(gb), avg(l)];
      return { w: w.sub(mw.mul(rate)), b: b.sub(mb.mul(rate)), loss: ml };
    };
    const batch = splitX ? P('data') : P();
    return sl.shardMap(local, { mesh, inSpecs: [P(), P(), batch, batch], outSpecs: P() })(w, b, x, y);
  };
}

describe('data-parallel-step', () => {
  test('the reference solution passes every case and requirement', async () => {
    const r = await checkSolution(dataParallel, dataParallelSolution, { seed: 7 });
    expect(failed(r)).toEqual({ requirements: [], cases: 0 });
    expect(r.cases).toHaveLength(dataParallel.examples.length + GENERATED_CASES);
    expect(r.passed).toBe(true);
  });

  test('timeline: true records what each device did in the traced case (and only then)', async () => {
    const r = await checkSolution(dataParallel, dataParallelSolution, { seed: 7, timeline: true });
    expect(r.passed).toBe(true);
    expect(r.timeline.devices).toBe(8);
    for (let d = 0; d < 8; d++) {
      const mine = r.timeline.spans.filter((s) => s.device === d);
      // One shard_map body per device, and in it the one pmean of the gradients and loss, run as a psum (then a division).
      expect(mine.filter((s) => s.depth === 0 && s.name === 'shard_map')).toHaveLength(1);
      expect(mine.filter((s) => s.kind === 'collective').map((s) => s.name)).toEqual(['psum']);
      expect(mine.filter((s) => s.kind === 'collective' || s.depth === 1).length).toBeGreaterThan(5);
    }
    expect((await checkSolution(dataParallel, dataParallelSolution, { seed: 7 })).timeline).toBe(null);
  });

  test("a learner's own jit inside (a jit equation in the traced program) changes no verdict", async () => {
    const jitted = sl.jit(dataParallelSolution);
    const r = await checkSolution(dataParallel, (...args) => jitted(...args), { seed: 7 });
    expect(failed(r)).toEqual({ requirements: [], cases: 0 });
    const innerJit = (w, b, x, y, lr) => {
      const mesh = sl.makeMesh([8], ['data']);
      const local = sl.jit((w, b, x, y) => {
        const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
        const [wv, bv] = lax.pcast([w, b], 'data', { to: 'varying' });
        const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(wv, bv);
        const [mw, mb, ml] = lax.pmean([gw, gb, l], 'data');
        return { w: w.sub(mw.mul(lr)), b: b.sub(mb.mul(lr)), loss: ml };
      });
      return sl.shardMap(local, { mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: P() })(w, b, x, y);
    };
    const inner = await checkSolution(dataParallel, innerJit, { seed: 7 });
    expect(failed(inner)).toEqual({ requirements: [], cases: 0 });
  });

  test('psum divided by 8 passes like pmean; grad works like valueAndGrad', async () => {
    const viaPsum = (w, b, x, y, lr) => {
      const mesh = sl.makeMesh([8], ['data']);
      return sl.shardMap(
        (w, b, x, y) => {
          const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
          const [wv, bv] = lax.pcast([w, b], 'data', { to: 'varying' });
          const [gw, gb] = sl.grad(loss, { argnums: [0, 1] })(wv, bv);
          const l = loss(wv, bv);
          return { w: w.sub(lax.psum(gw, 'data').div(8).mul(lr)), b: b.sub(lax.psum(gb, 'data').div(8).mul(lr)), loss: lax.psum(l, 'data').div(8) };
        },
        { mesh, inSpecs: [P(), P(), P('data'), P('data')], outSpecs: P() },
      )(w, b, x, y);
    };
    expect(failed(await checkSolution(dataParallel, viaPsum))).toEqual({ requirements: [], cases: 0 });
  });

  test('forgetting pcast: 8 times the gradient', async () => {
    const r = await checkSolution(dataParallel, step({ pcast: false }));
    expect(failed(r).requirements).toEqual(['mean-gradient']);
    expect(r.requirements.find((q) => q.id === 'mean-gradient').message).toMatch(/8 times the mean gradient/);
  });

  test('psum instead of pmean on the gradients: wrong numbers', async () => {
    const r = await checkSolution(dataParallel, step({ reduce: 'psum' }));
    expect(failed(r).cases).toBeGreaterThan(0);
  });

  test('the body closing over the full x and y', async () => {
    const r = await checkSolution(dataParallel, step({ captureX: true }));
    expect(failed(r).requirements).toContain('no-full-batch-in-body');
    expect(r.requirements.find((q) => q.id === 'no-full-batch-in-body').message).toMatch(/receives the whole x/);
  });

  test('x not split (in_specs P() for x and y)', async () => {
    const r = await checkSolution(dataParallel, step({ splitX: false }));
    expect(failed(r).requirements).toContain('shard-map-splits-x');
    expect(r.requirements.find((q) => q.id === 'shard-map-splits-x').message).toMatch(/receives x as f32\[\d+,\d\]; each device should get a block of f32\[\d+,\d\]/);
  });

  test('no shard_map at all', async () => {
    const plain = (w, b, x, y, lr) => {
      const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
      const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(w, b);
      return { w: w.sub(gw.mul(lr)), b: b.sub(gb.mul(lr)), loss: l };
    };
    const r = await checkSolution(dataParallel, plain);
    expect(failed(r)).toEqual({ requirements: ['shard-map-splits-x', 'no-full-batch-in-body', 'reduces-over-data'], cases: 0 });
  });

  test('converting lr to a JS number', async () => {
    const r = await checkSolution(dataParallel, step({ concreteLr: true }));
    expect(r.passed).toBe(false);
    expect(r.requirements.every((q) => !q.passed)).toBe(true);
    expect(r.requirements[0].message).toMatch(/ConcretizationError/);
    expect(r.cases[0].message).toMatch(/ConcretizationError/);
  });

  test('a wrong output tree is reported', async () => {
    const r = await checkSolution(dataParallel, (w, b) => [w, b]);
    expect(r.cases[0].message).toBe('the solution returned an array of 2; it should return an object with keys w, b, loss');
  });

  test('generated cases are seeded and within the constraints', () => {
    const a = casesOf(dataParallel, { seed: 3 });
    expect(casesOf(dataParallel, { seed: 3 })).toEqual(a);
    for (const { input } of a.slice(dataParallel.examples.length)) {
      const [n, d] = [input.x.length, input.x[0].length];
      expect([8, 16, 24, 32]).toContain(n);
      expect(d).toBeGreaterThanOrEqual(1);
      expect(d).toBeLessThanOrEqual(4);
      expect(input.b.length).toBeGreaterThanOrEqual(1);
      expect(input.b.length).toBeLessThanOrEqual(3);
      // The inputs as the solution receives them: lr rounded to float32, held to 0.3 as float32 holds it.
      expect(input.lr).toBeGreaterThan(0);
      expect(input.lr).toBe(Math.fround(input.lr));
      expect(input.lr).toBeLessThanOrEqual(Math.fround(0.3));
    }
  });
});

// A tensor-parallel MLP with one thing changed (the options say what).
function mlp({ b2Inside = false, gatherHidden = false, fullWeights = false, noPsum = false, relu = true } = {}) {
  return (x, w1, b1, w2, b2) => {
    const mesh = sl.makeMesh([8], ['model']);
    const local = (x, w1, b1, w2, b2) => {
      let h = x.matmul(w1).add(b1);
      if (relu) h = sl.nn.relu(h);
      let partial = h.matmul(w2);
      if (b2Inside) partial = partial.add(b2);
      const out = noPsum ? lax.allGather(partial, 'model').sum({ axis: 0 }) : lax.psum(partial, 'model');
      return [out, gatherHidden ? lax.allGather(h, 'model', { axis: 1, tiled: true }) : h];
    };
    const w = fullWeights ? [P(), P(), P()] : [P(null, 'model'), P('model'), P('model', null)];
    const [out, hidden] = sl.shardMap(local, {
      mesh,
      inSpecs: [P(), ...w, P()],
      outSpecs: [noPsum ? P() : P(), gatherHidden ? P() : P(null, 'model')],
      checkVma: !(noPsum || gatherHidden || fullWeights),
    })(x, w1, b1, w2, b2);
    return { out: b2Inside ? out : out.add(b2), hidden };
  };
}

describe('tensor-parallel-mlp', () => {
  test('the reference solution passes every case and requirement', async () => {
    const r = await checkSolution(tensorParallel, tensorParallelSolution, { seed: 11 });
    expect(failed(r)).toEqual({ requirements: [], cases: 0 });
  });

  test('b2 added inside the body', async () => {
    const r = await checkSolution(tensorParallel, mlp({ b2Inside: true }));
    expect(failed(r).requirements).toEqual(['b2-once']);
  });

  test('hidden gathered into one replicated array', async () => {
    const r = await checkSolution(tensorParallel, mlp({ gatherHidden: true }));
    expect(failed(r).requirements).toContain('hidden-split');
    expect(r.cases[0].message).toMatch(/hidden' is laid out as P\(\) but should be hidden split by columns/);
  });

  test('full weights sent to every device', async () => {
    const r = await checkSolution(tensorParallel, mlp({ fullWeights: true }));
    expect(failed(r).requirements).toContain('weight-blocks');
  });

  test('no psum (all_gather then sum)', async () => {
    const r = await checkSolution(tensorParallel, mlp({ noPsum: true }));
    expect(failed(r).requirements).toContain('has-psum');
  });

  test('relu missing: wrong numbers', async () => {
    const r = await checkSolution(tensorParallel, mlp({ relu: false }));
    expect(failed(r).cases).toBeGreaterThan(0);
  });
});

describe('ring-allreduce-ppermute', () => {
  const ring = (perm = Array.from({ length: 8 }, (_, d) => [d, (d + 1) % 8]), steps = 7, usePsum = false) => (x) => {
    const mesh = sl.makeMesh([8], ['data']);
    return sl.shardMap(
      (block) => {
        if (usePsum) return { out: lax.psum(block, 'data') };
        let sum = block;
        let msg = block;
        for (let i = 0; i < steps; i++) {
          msg = lax.ppermute(msg, 'data', perm);
          sum = sum.add(msg);
        }
        return { out: sum };
      },
      { mesh, inSpecs: P('data'), outSpecs: { out: P('data') }, checkVma: !usePsum },
    )(x);
  };

  test('the reference solution passes; a ring the other way round passes too', async () => {
    const { default: problem } = await import('../../problems/ring-allreduce-ppermute/problem.js');
    const { default: solution } = await import('../../problems/ring-allreduce-ppermute/solution.mjs');
    expect(failed(await checkSolution(problem, solution))).toEqual({ requirements: [], cases: 0 });
    const back = Array.from({ length: 8 }, (_, d) => [d, (d + 7) % 8]);
    expect(failed(await checkSolution(problem, ring(back)))).toEqual({ requirements: [], cases: 0 });
  });

  test('psum instead of the ring, too few steps, and a partial permutation are rejected', async () => {
    const { default: problem } = await import('../../problems/ring-allreduce-ppermute/problem.js');
    expect(failed(await checkSolution(problem, ring(undefined, 7, true))).requirements).toEqual(['seven-ring-steps', 'ring-carries-the-rows', 'no-psum']);
    const six = await checkSolution(problem, ring(undefined, 6));
    expect(six.requirements.find((q) => q.id === 'seven-ring-steps').message).toMatch(/runs 6 ppermute steps/);
    expect(failed(six).cases).toBeGreaterThan(0);
    const partial = await checkSolution(problem, ring([[0, 1], [1, 2]]));
    expect(partial.requirements.find((q) => q.id === 'seven-ring-steps').message).toMatch(/not a full cyclic shift/);
  });
});

describe('device-mesh-named-sharding', () => {
  test('the reference passes, every device block checked; a swapped spec is caught', async () => {
    const { default: problem } = await import('../../problems/device-mesh-named-sharding/problem.js');
    const { default: solution } = await import('../../problems/device-mesh-named-sharding/solution.mjs');
    expect(failed(await checkSolution(problem, solution))).toEqual({ requirements: [], cases: 0 });
    const swapped = (x) => ({ ...solution(x), grid: sl.devicePut(x, new sl.NamedSharding(sl.makeMesh([2, 4], ['data', 'model']), P('model', 'data'))) });
    const r = await checkSolution(problem, swapped);
    expect(r.cases[0].message).toMatch(/output 'grid' is laid out as P\('model', 'data'\) but should be tiles over data and model/);
  });
});

describe('every problem', () => {
  test.each(PROBLEM_IDS)('%s: generated cases are seeded and within its constraints', async (id) => {
    const problem = await loadProblem(id);
    const cases = casesOf(problem, { seed: 5 }).slice(problem.examples.length);
    expect(cases).toHaveLength(GENERATED_CASES);
    expect(casesOf(problem, { seed: 5 }).slice(problem.examples.length)).toEqual(cases);
    for (const { input } of cases) expect(checkInput(problem, input).error).toBeUndefined();
  });
});

// A problem made up for the engine's own features: an int32 argument, a bool
// output, and a requirement that compares the programs traced at B and 2B.
const maskedSum = {
  id: 'masked-sum',
  args: ['x', 'n'],
  inputs: { x: { dtype: 'float32', shape: ['B', 4] }, n: { dtype: 'int32', shape: ['B'], values: { ge: 0, le: 4 } } },
  dims: { B: { min: 1, max: 4 } },
  outputs: { mask: { dtype: 'bool', shape: ['B', 4] }, total: { dtype: 'float32', shape: ['B'] } },
  examples: [{ input: { x: [[1, 2, 3, 4]], n: [2] }, expected: { mask: [[true, true, false, false]], total: [3] } }],
  generate: (rng) => {
    const b = rng.int(1, 4);
    return { x: rng.matrix(b, 4, -1, 1), n: Array.from({ length: b }, () => rng.int(0, 4)) };
  },
  reference: ({ x, n }) => ({ mask: x.map((_, i) => [0, 1, 2, 3].map((j) => j < n[i])), total: x.map((row, i) => row.slice(0, n[i]).reduce((s, v) => s + v, 0)) }),
  requirements: [
    {
      id: 'flat',
      text: 'The program does not grow with B.',
      traceAt: ({ x }) => ({ [`B=${x.length}`]: { x: [x.length, 4], n: [x.length] }, [`B=${2 * x.length}`]: { x: [2 * x.length, 4], n: [2 * x.length] } }),
      check: ({ traces, query }) => query.traceFailure(traces) ?? query.sizeGrowth(traces) ?? true,
    },
    {
      id: 'n-compared',
      text: 'n is compared, traced.',
      check: ({ jaxpr, vars, query }) => {
        const from = query.dependents(jaxpr, vars.n);
        return query.allEquations(jaxpr).some((e) => e.primitive === 'lt' && e.inputs.some((a) => from.has(a.name))) || 'n reaches no lt';
      },
    },
  ],
};

describe('the engine on int32 arguments, bool outputs and programs at other shapes', () => {
  const { np } = sl;
  const vectorized = (x, n) => {
    const mask = np.arange(4).lt(n.reshape([n.shape[0], 1]));
    return { mask, total: np.where(mask, x, 0).sum({ axis: 1 }) };
  };
  const rowLoop = (x, n) => {
    const rows = Array.from({ length: x.shape[0] }, (_, i) => vectorized(x.at(sl.slice(i, i + 1)).get(), n.at(sl.slice(i, i + 1)).get()));
    return { mask: np.concatenate(rows.map((r) => r.mask)), total: np.concatenate(rows.map((r) => r.total)) };
  };

  test('n arrives as int32, the bool mask compares exactly, and the vectorized solution passes', async () => {
    const r = await checkSolution(maskedSum, vectorized, { seed: 2 });
    expect(failed(r)).toEqual({ requirements: [], cases: 0 });
  });

  test('a loop over the rows grows with B: the requirement names both sizes', async () => {
    const r = await checkSolution(maskedSum, rowLoop, { seed: 2 });
    expect(failed(r)).toEqual({ requirements: ['flat'], cases: 0 });
    expect(r.requirements[0].message).toMatch(/^\d+ equations at B=(\d) but \d+ at B=\d$/);
  });

  test('a wrong mask is shown as booleans; a float mask is the wrong dtype; a program that fails at 2B is reported', async () => {
    const le = await checkSolution(maskedSum, (x, n) => ({ ...vectorized(x, n), mask: np.arange(4).le(n.reshape([n.shape[0], 1])) }), { seed: 2 });
    expect(le.cases[0].diffs[0]).toMatchObject({ output: 'mask', expected: false, actual: true });
    const asFloat = await checkSolution(maskedSum, (x, n) => ({ ...vectorized(x, n), mask: vectorized(x, n).mask.astype('float32') }), { seed: 2 });
    expect(asFloat.cases[0].message).toBe("output 'mask' has dtype float32 but should be bool");
    // Seed 2's traced case has B = 3, so the trace at 2B = 6 is past the solution's limit (a fresh seed could draw B <= 2).
    const small = await checkSolution(
      maskedSum,
      (x, n) => {
        if (x.shape[0] > 4) throw new Error('too many rows');
        return vectorized(x, n);
      },
      { seed: 2 },
    );
    expect(small.requirements[0].message).toMatch(/could not be traced at B=\d+ \(the solution failed: Error: too many rows\)/);
  });
});
