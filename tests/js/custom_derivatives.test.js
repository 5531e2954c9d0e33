// customJvp, customVjp and lax.stopGradient from JS: the examples JAX's
// documentation gives for them (log1pexp's stable JVP at x = 100, gradient
// clipping with nondiff arguments), rules that differ from the function's
// own derivative (so only the rule can give the value checked), JAX's
// printed programs and errors, nn.relu's derivative at 0, rules under vmap,
// hessian through a custom JVP, and a custom function in a shardMap body.
// Values against float64 references within 1e-5 relative.
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np, lax, nn } = sl;
beforeAll(() => sl.init());


describe('stopGradient', () => {
  test('d/dx sum(x * stop_gradient(x)) = x; ints pass through; printed as JAX', async () => {
    const f = (x) => np.sum(np.multiply(x, lax.stopGradient(x)));
    close(await sl.grad(f)(sl.array([1, -2, 0.5])).tolist(), [1, -2, 0.5]);
    const [a, b] = lax.stopGradient([sl.array([1.5]), 3]);
    expect(b).toBe(3);
    expect(await a.tolist()).toEqual([1.5]);
    expect(sl.makeJaxpr((x) => lax.stopGradient(x))(sl.array([1, 2])).toString()).toBe(
      '{ lambda ; a:f32[2]. let b:f32[2] = stop_gradient a in (b,) }',
    );
  });
});

describe('customJvp', () => {
  // JAX's custom derivative tutorial: log(1 + e^x), whose derivative by
  // autodiff is nan at x = 100 in float32, and 1 by the stable rule.
  function log1pexp() {
    const f = sl.customJvp((x) => np.log(np.add(1, np.exp(x))), { name: 'log1pexp' });
    f.defjvp(function log1pexp_jvp([x], [t]) {
      return [f(x), np.multiply(t, np.subtract(1, np.divide(1, np.add(1, np.exp(x)))))];
    });
    return f;
  }

  test("log1pexp: the documented stable derivative at 100 and the plain function's values", async () => {
    const f = log1pexp();
    const plain = (x) => np.log(np.add(1, np.exp(x)));
    expect(Number.isNaN(await sl.grad(plain)(100.0).item())).toBe(true);
    expect(await sl.grad(f)(100.0).item()).toBe(1);
    close(await f(sl.array([0, 1, -3])).tolist(), [0, 1, -3].map((x) => Math.log1p(Math.exp(x))));
    close(await sl.grad(f)(3.0).item(), 1 - 1 / (1 + Math.exp(3)));
    const [y, dy] = await Promise.all((await sl.jit((x, t) => sl.jvp(f, [x], [t]))(sl.array([0.5]), sl.array([2]))).map((a) => a.tolist()));
    close(y, [Math.log1p(Math.exp(0.5))]);
    close(dy, [2 * (1 - 1 / (1 + Math.exp(0.5)))]);
  });

  test('the printed program is JAX 0.11\'s (custom_api_test.py test_pretty_print)', () => {
    const f = sl.customJvp(function f(x) {
      return np.add(x, 1);
    });
    f.defjvp(function f_jvp(primals, tangents) {
      return [f(...primals), tangents[0]];
    });
    expect(sl.makeJaxpr(f)(sl.array([4.2])).toString()).toBe(
      [
        '{ lambda ; a:f32[1]. let',
        '    b:f32[1] = custom_jvp_call[',
        '      name=f',
        '      call_jaxpr={ lambda ; c:f32[1]. let d:f32[1] = add c 1.0:f32[] in (d,) }',
        '      jvp=f_jvp',
        '      symbolic_zeros=False',
        '    ] a',
        '  in (b,) }',
      ].join('\n'),
    );
  });

  test('defjvps, nondiffArgnums, and the rule used twice by hessian', async () => {
    // f(x) = x^3 with a rule 5 x^2 (not f's derivative): hessian = d/dx (5 x^2) = 10 x.
    const cube = sl.customJvp((x) => np.multiply(x, np.multiply(x, x)), { name: 'cube' });
    cube.defjvps((t, ans, x) => np.multiply(t, np.multiply(5, np.multiply(x, x))));
    close(await sl.grad(cube)(2.0).item(), 20);
    close(await sl.hessian(cube)(2.0).item(), 20);
    // scale(k, x) = k x, k static; the rule reads k.
    const scale = sl.customJvp((k, x) => np.multiply(x, k), { nondiffArgnums: [0] });
    scale.defjvp((k, [x], [t]) => [scale(k, x), np.multiply(t, 2 * k)]);
    close(await sl.grad((x) => scale(3, x))(1.5).item(), 6);
  });

  test("nn.relu's derivative at 0 is 0, as JAX's (a custom_jvp there), and it prints as one", async () => {
    close(await sl.grad((x) => np.sum(nn.relu(x)))(sl.array([-1, 0, 2])).tolist(), [0, 0, 1]);
    close(await nn.relu(sl.array([-1, 0, 2])).tolist(), [0, 0, 2]);
    const text = sl.makeJaxpr(nn.relu)(sl.array([1, 2])).toString();
    expect(text).toContain('custom_jvp_call[\n      name=relu\n');
    expect(text).toContain('jvp=jvp\n');
  });

  test('errors: no rule, a rule of the wrong structure, a rule that throws', () => {
    const f = sl.customJvp(function f(x) {
      return x;
    });
    expect(() => sl.makeJaxpr(f)(1.0)).toThrow('No JVP defined for custom_jvp function f using defjvp.');
    f.defjvp(function bad(primals) {
      return [primals[0]];
    });
    expect(() => sl.makeJaxpr(sl.grad(f))(1.0)).toThrow(/Custom JVP rule bad for function f must produce a pair/);
    const boom = new RangeError('from the rule');
    f.defjvp(() => {
      throw boom;
    });
    let caught;
    try {
      sl.makeJaxpr(sl.grad(f))(1.0);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBe(boom);
    expect(sl.makeJaxpr(f)(1.0).toString()).toContain('custom_jvp_call');  // the runtime stays usable
  });
});

describe('customVjp', () => {
  // JAX's tutorial: gradient clipping, lo and hi static (nondiff_argnums).
  function clipGradient() {
    const f = sl.customVjp((lo, hi, x) => x, { nondiffArgnums: [0, 1], name: 'clip_gradient' });
    f.defvjp(
      function clip_gradient_fwd(lo, hi, x) {
        return [x, null];
      },
      function clip_gradient_bwd(lo, hi, _, g) {
        return [np.clip(g, lo, hi)];
      },
    );
    return f;
  }

  test('gradient clipping: bwd is used, the value is the function\'s', async () => {
    const clip = clipGradient();
    const f = (x) => np.sum(clip(-0.5, 0.5, np.multiply(x, 3)));
    close(await sl.grad(f)(sl.array([1, 2])).tolist(), [1.5, 1.5]);
    close(await f(sl.array([1, 2])).item(), 9);
  });

  test('a straight-through estimator: round forward, identity backward', async () => {
    const ste = sl.customVjp(function ste(x) {
      return np.round(x);
    });
    ste.defvjp((x) => [ste(x), null], (_, g) => [g]);
    close(await sl.grad((x) => np.sum(np.multiply(ste(x), x)))(sl.array([0.4, 1.6])).tolist(), [0.4 + 0, 1.6 + 2]);
  });

  test('printed as JAX 0.11 prints it; a jvp of it is JAX\'s error', () => {
    const f = sl.customVjp(function f(x) {
      return np.add(x, 1);
    });
    f.defvjp(
      function f_fwd(x) {
        return [f(x), []];
      },
      function f_bwd(_, g) {
        return [g];
      },
    );
    expect(sl.makeJaxpr(f)(sl.array([4.2])).toString()).toBe(
      [
        '{ lambda ; a:f32[1]. let',
        '    b:f32[1] = custom_vjp_call[',
        '      name=f',
        '      bwd=f_bwd',
        '      call_jaxpr={ lambda ; c:f32[1]. let d:f32[1] = add c 1.0:f32[] in (d,) }',
        '      fwd=f_fwd',
        '      symbolic_zeros=False',
        '    ] a',
        '  in (b,) }',
      ].join('\n'),
    );
    expect(() => sl.makeJaxpr((x) => sl.jvp(f, [x], [x]))(sl.array([1]))).toThrow(
      "can't apply forward-mode autodiff (jvp) to a custom_vjp function.",
    );
    expect(() => sl.makeJaxpr(sl.jacfwd(f))(sl.array([1]))).toThrow("can't apply forward-mode autodiff (jvp) to a custom_vjp function.");
  });

  test('under vmap: per-example gradients, and summed ones for an unmapped argument', async () => {
    // f(x, w) = sum(x * w), its bwd giving (7 g w, 7 g x) (7 times the true cotangents), residuals a tree.
    const f = sl.customVjp((x, w) => np.sum(np.multiply(x, w)), { name: 'dot' });
    f.defvjp(
      (x, w) => [f(x, w), { x, w }],
      ({ x, w }, g) => [np.multiply(np.multiply(g, 7), w), np.multiply(np.multiply(g, 7), x)],
    );
    const xs = [[1, 2, 3], [4, 5, 6]];
    const w = [0.5, -1, 2];
    const [dx, dw] = await Promise.all(sl.vmap(sl.grad(f, { argnums: [0, 1] }), { inAxes: [0, null] })(sl.array(xs), sl.array(w)).map((a) => a.tolist()));
    close(dx, xs.map(() => w.map((v) => 7 * v)));
    close(dw, xs.map((x) => x.map((v) => 7 * v)));
    const total = (x, wv) => np.sum(sl.vmap(f, { inAxes: [0, null] })(x, wv));
    const sw = await sl.grad(total, { argnums: 1 })(sl.array(xs), sl.array(w)).tolist();
    close(sw, [0, 1, 2].map((k) => 7 * (xs[0][k] + xs[1][k])));
  });

  test('in a shardMap body with a psum, gradients through bwd', async () => {
    const mesh = sl.makeMesh([8], ['i']);
    const sq = sl.customVjp((x) => np.multiply(x, x), { name: 'sq' });
    sq.defvjp((x) => [sq(x), x], (x, g) => [np.multiply(np.multiply(x, g), 3)]); // 3 x g, not 2 x g
    const loss = sl.shardMap((blk) => lax.psum(np.sum(sq(blk)), 'i'), { mesh, inSpecs: sl.P('i'), outSpecs: sl.P() });
    const x = Array.from({ length: 16 }, (_, k) => (k - 7) / 4);
    close(await (await sl.jit(sl.grad(loss))(sl.array(x))).tolist(), x.map((v) => 3 * v));
    close(await (await sl.jit(loss)(sl.array(x))).item(), x.reduce((s, v) => s + v * v, 0));
  });

  test('a custom_vjp whose output is invariant in a shardMap body, under a jit, differentiated by its bwd', async () => {
    // f(x) = psum(x): invariant output of a varying input; bwd's cotangent must vary as x does (pvary).
    const mesh = sl.makeMesh([4], ['i']);
    const f = sl.customVjp((x) => lax.psum(x, 'i'), { name: 'f' });
    f.defvjp((x) => [f(x), null], (_, g) => [np.multiply(lax.pvary(g, 'i'), 2)]); // twice psum's own
    const g = sl.jit(sl.shardMap((x) => f(x), { mesh, inSpecs: sl.P('i'), outSpecs: sl.P() }));
    close(await sl.grad((x) => np.sum(g(x)))(sl.array([1, 2, 3, 4])).tolist(), [2, 2, 2, 2]);
  });
});

describe('which functions run where, as in JAX', () => {
  // JAX's JVP trace calls a custom_jvp's rule and never the function; a jit
  // traces the function first, and the rule when its derivative is taken;
  // eager vjp runs fwd when called and bwd when the pullback is.
  function counted() {
    const calls = [];
    const f = sl.customJvp((x) => (calls.push('f'), np.sin(x)), { name: 'f' });
    f.defjvp(([x], [t]) => (calls.push('f_jvp'), [f(x), np.multiply(np.cos(x), t)]));
    const g = sl.customVjp((x) => (calls.push('g'), np.sin(x)), { name: 'g' });
    g.defvjp(
      (x) => (calls.push('g_fwd'), [g(x), np.cos(x)]),
      (c, ct) => (calls.push('g_bwd'), [np.multiply(c, ct)]),
    );
    return { calls, f, g };
  }

  test('custom_jvp: the rule alone under jvp and grad, twice under grad of grad, after the function under a jit', async () => {
    const { calls, f } = counted();
    await sl.jvp(f, [3], [1])[1].item();
    expect(calls.splice(0)).toEqual(['f_jvp', 'f']);
    close(await sl.grad(sl.grad(f))(3).item(), -Math.sin(3));
    expect(calls.splice(0)).toEqual(['f_jvp', 'f_jvp', 'f']);
    close(await sl.grad(sl.jit(f))(2).item(), Math.cos(2));
    expect(calls.splice(0)).toEqual(['f', 'f_jvp', 'f']);
  });

  test('custom_vjp: fwd when vjp is called, bwd at each pullback call; a jvp of it runs fwd, then fails', async () => {
    const { calls, g } = counted();
    const [y, pullback] = sl.vjp(g, 1);
    close(await y.item(), Math.sin(1));
    expect(calls.splice(0)).toEqual(['g_fwd', 'g']);
    close(await pullback(2)[0].item(), 2 * Math.cos(1));
    close(await pullback(1)[0].item(), Math.cos(1));
    expect(calls.splice(0)).toEqual(['g_bwd', 'g_bwd']);
    expect(() => sl.jvp(g, [3], [1])).toThrow("can't apply forward-mode autodiff (jvp) to a custom_vjp function.");
    expect(calls.splice(0)).toEqual(['g_fwd', 'g']);
  });
});
