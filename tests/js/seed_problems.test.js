// The two seed problems solved with the JS API as a user would: every example
// of problems/*/statement.md reproduced, the traced program's structure checked
// through makeJaxpr's JSON, and the "forgot pcast" step giving 8x the gradient.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import dataParallel from '../../problems/data-parallel-step/problem.js';
import tensorParallel from '../../problems/tensor-parallel-mlp/problem.js';

const { P, lax, nn } = sl;
let mesh;
let modelMesh;
beforeAll(async () => {
  await sl.init();
  mesh = sl.makeMesh([8], ['data']);
  modelMesh = sl.makeMesh([8], ['model']);
});

// The data-parallel step, as the statement's hints write it.
function dataParallelStep({ pcast = true } = {}) {
  return (w, b, x, y, lr) => {
    const local = (w, b, x, y) => {
      const [wv, bv] = pcast ? lax.pcast([w, b], 'data', { to: 'varying' }) : [w, b];
      const loss = (w, b) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
      const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(wv, bv);
      const [mgw, mgb, ml] = lax.pmean([gw, gb, l], 'data');
      return [w.sub(mgw.mul(lr)), b.sub(mgb.mul(lr)), ml];
    };
    const [nw, nb, loss] = sl.shardMap(local, {
      mesh,
      inSpecs: [P(), P(), P('data'), P('data')],
      outSpecs: [P(), P(), P()],
    })(w, b, x, y);
    return { w: nw, b: nb, loss };
  };
}

function tensorParallelMlp(x, w1, b1, w2, b2) {
  const local = (x, w1, b1, w2) => {
    const h = nn.relu(x.matmul(w1).add(b1));
    return [lax.psum(h.matmul(w2), 'model'), h];
  };
  const [partial, hidden] = sl.shardMap(local, {
    mesh: modelMesh,
    inSpecs: [P(), P(null, 'model'), P('model'), P('model', null)],
    outSpecs: [P(), P(null, 'model')],
  })(x, w1, b1, w2);
  return { out: partial.add(b2), hidden };
}

// The statements' examples, with their published outputs (problems/<id>/problem.js).
const stepExamples = dataParallel.examples.map(({ input, expected }) => ({ input, output: expected }));
const mlpExamples = tensorParallel.examples.map(({ input, expected }) => ({ input, output: expected }));

function expectClose(actual, expected, tol, what) {
  const a = [actual].flat(Infinity);
  const e = [expected].flat(Infinity);
  expect(a.length, what).toBe(e.length);
  a.forEach((v, i) => expect(Math.abs(v - e[i]), `${what}[${i}]: ${v} vs ${e[i]}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(e[i]))));
}

// Every equation of a program and of the programs nested in it.
function* equations(jaxpr) {
  for (const e of jaxpr.eqns) {
    yield e;
    if (e.params.jaxpr) yield* equations(e.params.jaxpr);
  }
}

describe('data-parallel step with psum', () => {
  test.each(stepExamples.map((e, i) => [i, e]))('example %i', async (_, { input, output }) => {
    const step = sl.jit(dataParallelStep());
    const { w, b, x, y, lr } = input;
    const out = await step(sl.array(w), sl.array(b), sl.array(x), sl.array(y), lr);
    expectClose(await out.w.tolist(), output.w, 1e-5, 'w');
    expectClose(await out.b.tolist(), output.b, 1e-5, 'b');
    expectClose(await out.loss.tolist(), output.loss, 1e-5, 'loss');
    expect(out.w.sharding.spec.toString()).toBe('P()');
    expect(out.loss.shape).toEqual([]);
  });

  test('the traced program: a shard_map whose body gets f32[N/8,D] blocks and reduces over data', () => {
    const n = 32;
    const d = 4;
    const k = 3;
    const S = sl.ShapeDtypeStruct;
    const jaxpr = sl.makeJaxpr(dataParallelStep())(new S([d, k]), new S([k]), new S([n, d]), new S([n, k]), 0.1).toJSON();
    const sm = jaxpr.eqns.find((e) => e.primitive === 'shard_map');
    expect(sm).toBeDefined();
    const body = sm.params.jaxpr;
    const blockShapes = body.invars.map((v) => v.aval.shape);
    expect(blockShapes).toContainEqual([n / 8, d]);
    expect(blockShapes).not.toContainEqual([n, d]); // the full x is never an input of the body
    const reductions = [...equations(body)].filter((e) => e.primitive === 'psum' && e.params.axes.includes('data'));
    expect(reductions.length).toBeGreaterThan(0);
    // lr is an f32[] input, not a constant.
    expect(jaxpr.invars[4].aval.str).toBe('f32[]');
  });

  test('forgetting pcast makes the update use 8x the gradient, as in JAX', async () => {
    const { w, b, x, y, lr } = stepExamples[1].input;
    const args = [sl.array(w), sl.array(b), sl.array(x), sl.array(y), lr];
    const right = await sl.jit(dataParallelStep())(...args);
    const forgot = await sl.jit(dataParallelStep({ pcast: false }))(...args);
    const w0 = w.flat();
    const wr = await right.w.data();
    const wf = await forgot.w.data();
    w0.forEach((v, i) => expect(v - wf[i]).toBeCloseTo(8 * (v - wr[i]), 4));
  });
});

describe('tensor-parallel MLP', () => {
  test.each(mlpExamples.map((e, i) => [i, e]))('example %i', async (_, { input, output }) => {
    const f = sl.jit(tensorParallelMlp);
    const { x, w1, b1, w2, b2 } = input;
    const out = await f(...[x, w1, b1, w2, b2].map((a) => sl.array(a)));
    expectClose(await out.out.tolist(), output.out, 1e-5, 'out');
    expectClose(await out.hidden.tolist(), output.hidden, 1e-5, 'hidden');
    // hidden stays split by columns: each device holds its (B, H/8) block.
    expect(out.hidden.sharding.spec.toString()).toBe("P(None, 'model')");
    const shards = out.hidden.addressableShards;
    expect(shards).toHaveLength(8);
    const h = w1[0].length;
    shards.forEach((s, d) => expect(s.index[1]).toEqual([(d * h) / 8, ((d + 1) * h) / 8]));
  });

  test('the traced program: weight blocks f32[D,H/8] and f32[H/8,O], a psum, hidden out by columns', () => {
    const S = sl.ShapeDtypeStruct;
    const [b, d, h, o] = [4, 5, 32, 4];
    const jaxpr = sl.makeJaxpr(tensorParallelMlp)(new S([b, d]), new S([d, h]), new S([h]), new S([h, o]), new S([o])).toJSON();
    const sm = jaxpr.eqns.find((e) => e.primitive === 'shard_map');
    const blockShapes = sm.params.jaxpr.invars.map((v) => v.aval.shape);
    expect(blockShapes).toContainEqual([d, h / 8]);
    expect(blockShapes).toContainEqual([h / 8, o]);
    expect([...equations(sm.params.jaxpr)].some((e) => e.primitive === 'psum')).toBe(true);
    expect(sm.params.out_specs[1]).toEqual([null, 'model']);
    // hidden comes straight out of the shard_map.
    expect(jaxpr.outvars[1].name).toBe(sm.outputs[1].name);
  });
});
