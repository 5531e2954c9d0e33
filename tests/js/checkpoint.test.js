// checkpoint (jax.checkpoint / jax.remat): the same values and gradients as
// the function without it, for every policy (float32 to 1e-6: the backward
// pass recomputes with the same operations); the printed program as JAX
// 0.11's (a remat2 equation; the backward one differentiated=True); what
// the backward pass recomputes, counted in the gradient's program; outside
// a trace it is the function itself; its errors.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { np } = sl;
beforeAll(() => sl.init());

// f(x, w) = sum(sin(sin(x) @ w))
const f = (x, w) => np.sum(np.sin(np.matmul(np.sin(x), w)));
let x;
let w;
beforeAll(() => {
  x = sl.array([[0.1, -0.4, 0.7], [1.2, 0.3, -0.9]], { dtype: 'float32' });
  w = sl.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.6], [-0.7, 0.4, 0.9]], { dtype: 'float32' });
});
const count = (text, prim) => text.split('\n').filter((l) => l.includes(`= ${prim} `) || l.includes(`= ${prim}[`)).length;

test('every policy gives the value and gradient of the function without it', async () => {
  const want = await Promise.all(sl.grad(f, { argnums: [0, 1] })(x, w).map((g) => g.tolist()));
  for (const policy of [null, ...Object.values(sl.checkpointPolicies)]) {
    const got = await Promise.all(sl.grad(sl.checkpoint(f, { policy }), { argnums: [0, 1] })(x, w).map((g) => g.tolist()));
    got.flat(2).forEach((v, k) => expect(v).toBeCloseTo(want.flat(2)[k], 6));
  }
  expect(await sl.checkpoint(f)(x, w).item()).toBe(await f(x, w).item());
});

test('printed as JAX prints it; the backward pass recomputes what the policy does not save', () => {
  const text = sl.makeJaxpr(sl.checkpoint((v) => np.sin(np.sin(v))))(1.0).toString();
  expect(text).toBe(
    [
      '{ lambda ; a:f32[]. let',
      '    b:f32[] = remat2[',
      '      differentiated=False',
      '      jaxpr={ lambda ; c:f32[]. let d:f32[] = sin c; e:f32[] = sin d in (e,) }',
      '      policy=None',
      '      prevent_cse=True',
      '    ] a',
      '  in (b,) }',
    ].join('\n'),
  );
  const grads = (policy) => sl.makeJaxpr(sl.grad(sl.checkpoint(f, { policy }), { argnums: [0, 1] }))(x, w).toString();
  // None: the 2 sines forward, sin(x) again backward (it feeds w's cotangent).
  expect(count(grads(null), 'sin')).toBe(3);
  expect(grads(null)).toContain('differentiated=True');
  // Everything saved: nothing recomputed; the product saved: 1 product forward, 2 backward (its transposes).
  expect(count(grads('everything_saveable'), 'sin')).toBe(2);
  expect(count(grads('dots_saveable'), 'dot_general')).toBe(3);
  expect(count(grads('nothing_saveable'), 'dot_general')).toBe(4);
});

test('jvp, vmap and static arguments', async () => {
  const g = sl.checkpoint((v, k) => np.multiply(np.sin(v), k), { staticArgnums: 1 });
  const [y, t] = sl.jvp((v) => g(v, 3), [sl.array([0.5], { dtype: 'float32' })], [sl.array([1], { dtype: 'float32' })]);
  expect(await y.item()).toBeCloseTo(3 * Math.sin(0.5), 6);
  expect(await t.item()).toBeCloseTo(3 * Math.cos(0.5), 6);
  const v = await sl.vmap(sl.grad((s) => sl.checkpoint(np.sin)(s)))(sl.array([0, 1, 2], { dtype: 'float32' })).tolist();
  v.forEach((d, i) => expect(d).toBeCloseTo(Math.cos(i), 6));
});

test('errors', () => {
  expect(() => sl.checkpoint(f, { policy: 'save_only_these_names' })).toThrow('checkpoint: policy "save_only_these_names" is not one ShardLab has');
  expect(() => sl.checkpoint(3)).toThrow('checkpoint: expected a function to checkpoint, got number');
});
