// JAX in Python (web/python/jax in Pyodide) on the checker and the devices:
// every problem's Python reference passes; the Python versions of the
// known-wrong solutions of checker.test.js fail for the same reasons; a
// branch on a traced value, float(lr) and .item() raise JAX's errors; pytrees
// go through jit, grad and shard_map; the printed program equals the JS
// API's for the same function; tracebacks give the learner's lines. One warm
// Python serves the file (python_env.js).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { checkSolution } from '../../web/checker/engine.js';
import { loadProblem, PROBLEM_IDS } from '../../web/checker/problems.js';
import { pythonFunction, runPython, warmPython } from './python_env.js';

beforeAll(async () => {
  await sl.init();
  await warmPython();
}, 120000);

const failed = (report) => ({
  requirements: report.requirements.filter((r) => !r.passed).map((r) => r.id),
  cases: report.cases.filter((c) => !c.passed).length,
});

// Checks Python `source` (its function `name`) against problem `id`, as the engine checks any solution.
async function checkPython(id, source, name) {
  const problem = await loadProblem(id);
  const fn = await pythonFunction(source, name ?? problem.functionName);
  try {
    return await checkSolution(problem, fn, { lang: 'python', seed: 3 });
  } finally {
    fn.dispose();
  }
}

describe('the Python reference solutions', () => {
  test.each(PROBLEM_IDS)('%s passes every case and requirement', async (id) => {
    const source = readFileSync(new URL(`../../problems/${id}/solution.py`, import.meta.url), 'utf8');
    expect(failed(await checkPython(id, source))).toEqual({ requirements: [], cases: 0 });
  }, 60000);
});

// A data-parallel step in Python with one thing changed (the options say what), as checker.test.js's step().
function step({ pcast = true, reduce = 'pmean', captureX = false, splitX = true, lr = 'lr', branch = false } = {}) {
  return `
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

def step(w, b, x, y, lr):
    mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    rate = ${lr}
    ${branch ? 'if lr > 0.1:\n        rate = 0.1' : ''}
    def local(w, b, xs, ys):
        xb, yb = ${captureX ? '(x, y)' : '(xs, ys)'}
        def loss(w, b):
            return jnp.sum(jnp.square(xb @ w + b - yb)) / xb.shape[0]
        wv, bv = ${pcast ? 'jax.lax.pcast((w, b), "data", to="varying")' : '(w, b)'}
        l, (gw, gb) = jax.value_and_grad(loss, argnums=(0, 1))(wv, bv)
        avg = lambda v: jax.lax.${reduce}(v, "data")
        return {"w": w - rate * avg(gw), "b": b - rate * avg(gb), "loss": avg(l)}
    batch = ${splitX ? 'P("data")' : 'P()'}
    return jax.shard_map(local, mesh=mesh, in_specs=(P(), P(), batch, batch), out_specs=P())(w, b, x, y)
`;
}

describe('data-parallel-step in Python: known-wrong solutions fail for their reason', () => {
  test('forgetting pcast: 8 times the gradient', async () => {
    const r = await checkPython('data-parallel-step', step({ pcast: false }));
    expect(failed(r).requirements).toEqual(['mean-gradient']);
    expect(r.requirements.find((q) => q.id === 'mean-gradient').message).toMatch(/8 times the mean gradient.*jax\.lax\.pcast w and b to varying.*jax\.lax\.pmean/);
  });

  test('psum instead of pmean: wrong numbers', async () => {
    expect(failed(await checkPython('data-parallel-step', step({ reduce: 'psum' }))).cases).toBeGreaterThan(0);
  });

  test('the body closing over the full x and y', async () => {
    const r = await checkPython('data-parallel-step', step({ captureX: true }));
    expect(failed(r).requirements).toContain('no-full-batch-in-body');
  });

  test('x not split', async () => {
    const r = await checkPython('data-parallel-step', step({ splitX: false }));
    expect(failed(r).requirements).toContain('shard-map-splits-x');
  });

  test('no shard_map at all: the messages name jax.shard_map and jax.lax.pmean', async () => {
    const plain = `
import jax
import jax.numpy as jnp

def step(w, b, x, y, lr):
    loss = lambda w, b: jnp.sum(jnp.square(x @ w + b - y)) / x.shape[0]
    l, (gw, gb) = jax.value_and_grad(loss, argnums=(0, 1))(w, b)
    return {"w": w - lr * gw, "b": b - lr * gb, "loss": l}
`;
    const r = await checkPython('data-parallel-step', plain);
    expect(failed(r)).toEqual({ requirements: ['shard-map-splits-x', 'no-full-batch-in-body', 'reduces-over-data'], cases: 0 });
    expect(r.requirements.find((q) => q.id === 'shard-map-splits-x').message).toMatch(/use jax\.shard_map so/);
    expect(r.requirements.find((q) => q.id === 'reduces-over-data').message).toMatch(/with jax\.lax\.pmean$/);
  });

  test('float(lr): ConcretizationTypeError, reported by lr-traced in Python terms', async () => {
    const r = await checkPython('data-parallel-step', step({ lr: 'float(lr)' }));
    expect(r.passed).toBe(false);
    expect(r.requirements.every((q) => !q.passed)).toBe(true);
    expect(r.requirements.find((q) => q.id === 'lr-traced').message).toMatch(/float\(lr\), int\(lr\) or lr\.item\(\).*ConcretizationTypeError/);
    expect(r.cases[0].message).toMatch(/ConcretizationTypeError: .*File "solution\.py", line 8, in step/s);
  });

  test('a branch on lr: TracerBoolConversionError, reported by no-branch-on-traced', async () => {
    const r = await checkPython('data-parallel-step', step({ branch: true }));
    const branch = r.requirements.find((q) => q.id === 'no-branch-on-traced');
    expect(branch.passed).toBe(false);
    expect(branch.message).toMatch(/branches on a traced value .*jnp\.where.*\(TracerBoolConversionError\)/);
    expect(r.cases[0].message).toMatch(/line 9, in step\n    if lr > 0\.1:.*jax\.errors\.TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool\[\]/s);
  });

  test('a wrong output tree is reported', async () => {
    const r = await checkPython('data-parallel-step', 'def step(w, b, x, y, lr):\n    return (w, b)\n');
    expect(r.cases[0].message).toBe('the solution returned an array of 2; it should return an object with keys w, b, loss');
  });
});

// A tensor-parallel MLP in Python with one thing changed, as checker.test.js's mlp().
function mlp({ b2Inside = false, gatherHidden = false, fullWeights = false, noPsum = false, relu = true } = {}) {
  const check = !(noPsum || gatherHidden || fullWeights);
  const w = fullWeights ? 'P(), P(), P()' : 'P(None, "model"), P("model"), P("model", None)';
  return `
import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

def mlp(x, w1, b1, w2, b2):
    mesh = jax.make_mesh((8,), ("model",), axis_types=(AxisType.Auto,))
    def local(x, w1, b1, w2, b2):
        h = x @ w1 + b1
        ${relu ? 'h = jax.nn.relu(h)' : ''}
        partial = h @ w2
        ${b2Inside ? 'partial = partial + b2' : ''}
        out = ${noPsum ? 'jnp.sum(jax.lax.all_gather(partial, "model"), axis=0)' : 'jax.lax.psum(partial, "model")'}
        return out, ${gatherHidden ? 'jax.lax.all_gather(h, "model", axis=1, tiled=True)' : 'h'}
    out, hidden = jax.shard_map(local, mesh=mesh, in_specs=(P(), ${w}, P()),
        out_specs=(P(), ${gatherHidden ? 'P()' : 'P(None, "model")'}), check_vma=${check ? 'True' : 'False'})(x, w1, b1, w2, b2)
    return {"out": out if ${b2Inside ? 'True' : 'False'} else out + b2, "hidden": hidden}
`;
}

describe('tensor-parallel-mlp in Python: known-wrong solutions fail for their reason', () => {
  test('b2 added inside the body', async () => {
    expect(failed(await checkPython('tensor-parallel-mlp', mlp({ b2Inside: true }))).requirements).toEqual(['b2-once']);
  });
  test('hidden gathered into one replicated array', async () => {
    const r = await checkPython('tensor-parallel-mlp', mlp({ gatherHidden: true }));
    expect(failed(r).requirements).toContain('hidden-split');
    expect(r.requirements.find((q) => q.id === 'hidden-split').message).toMatch(/P\(None, 'model'\)/);
  });
  test('full weights sent to every device', async () => {
    expect(failed(await checkPython('tensor-parallel-mlp', mlp({ fullWeights: true }))).requirements).toContain('weight-blocks');
  });
  test('no psum (all_gather then sum)', async () => {
    const r = await checkPython('tensor-parallel-mlp', mlp({ noPsum: true }));
    expect(failed(r).requirements).toContain('has-psum');
    expect(r.requirements.find((q) => q.id === 'has-psum').message).toMatch(/jax\.lax\.psum$/);
  });
  test('relu missing: wrong numbers', async () => {
    expect(failed(await checkPython('tensor-parallel-mlp', mlp({ relu: false }))).cases).toBeGreaterThan(0);
  });
});

describe('ring-allreduce-ppermute and device-mesh-named-sharding in Python', () => {
  const ring = ({ steps = 7, perm = '[(d, (d + 1) % 8) for d in range(8)]', psum = false } = {}) => `
import jax
from jax.sharding import AxisType, PartitionSpec as P

def ring_all_reduce(x):
    mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    def body(block):
        if ${psum ? 'True' : 'False'}:
            return {"out": jax.lax.psum(block, "data")}
        total = message = block
        for _ in range(${steps}):
            message = jax.lax.ppermute(message, "data", ${perm})
            total = total + message
        return {"out": total}
    return jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs={"out": P("data")}, check_vma=${psum ? 'False' : 'True'})(x)
`;
  test('psum instead of the ring, too few steps, and a partial permutation are rejected', async () => {
    expect(failed(await checkPython('ring-allreduce-ppermute', ring({ psum: true }))).requirements).toEqual(['seven-ring-steps', 'ring-carries-the-rows', 'no-psum']);
    const six = await checkPython('ring-allreduce-ppermute', ring({ steps: 6 }));
    expect(six.requirements.find((q) => q.id === 'seven-ring-steps').message).toMatch(/runs 6 ppermute steps/);
    const partial = await checkPython('ring-allreduce-ppermute', ring({ perm: '[(0, 1), (1, 2)]' }));
    expect(partial.requirements.find((q) => q.id === 'seven-ring-steps').message).toMatch(/not a full cyclic shift/);
  });
  test('a ring written as a fori_loop passes (a loop of 7 steps counts 7); a loop of 6 does not', async () => {
    const loop = (n) => `import jax
from jax.sharding import AxisType, PartitionSpec as P

def ring_all_reduce(x):
    mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
    perm = [(d, (d + 1) % 8) for d in range(8)]
    def body(block):
        def step(i, carry):
            total, message = carry
            message = jax.lax.ppermute(message, "data", perm)
            return total + message, message
        total, _ = jax.lax.fori_loop(0, ${n}, step, (block, block))
        return {"out": total}
    return jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs={"out": P("data")})(x)
`;
    expect(failed(await checkPython('ring-allreduce-ppermute', loop(7)))).toEqual({ requirements: [], cases: 0 });
    const six = await checkPython('ring-allreduce-ppermute', loop(6));
    expect(six.requirements.find((q) => q.id === 'seven-ring-steps').message).toMatch(/runs 6 ppermute steps/);
  });
  test('a swapped spec is caught', async () => {
    const source = readFileSync(new URL('../../problems/device-mesh-named-sharding/solution.py', import.meta.url), 'utf8').replace('on(P("data", "model"))', 'on(P("model", "data"))');
    const r = await checkPython('device-mesh-named-sharding', source);
    expect(r.cases[0].message).toMatch(/output 'grid' is laid out as P\('model', 'data'\) but should be tiles over data and model/);
  });
});

describe('JAX behaviour from Python', () => {
  // Runs `body` (Python returning a value) with jax imported; the value as Python's str.
  const py = (body) => runPython(`import jax, functools\nimport jax.numpy as jnp\nfrom jax.sharding import AxisType, PartitionSpec as P\n${body}`);
  const errorOf = (call) => py(`
try:
    ${call}
    r = "no error"
except Exception as e:
    r = type(e).__module__ + "." + type(e).__name__ + ": " + str(e).split("\\n")[0]
r`);

  test('if tracer:, float(lr), int(), .item() and x[0] under jit raise JAX\'s errors', async () => {
    expect(await errorOf('jax.jit(lambda x: 1 if x > 0 else 2)(jnp.float32(1))')).toBe(
      'jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with shape bool[].',
    );
    expect(await errorOf('jax.jit(lambda lr: float(lr))(0.1)')).toBe(
      'jax.errors.ConcretizationTypeError: Abstract tracer value encountered where concrete value is expected: traced array with shape float32[]',
    );
    expect(await errorOf('jax.jit(lambda x: x.sum().item())(jnp.ones((2, 3)))')).toMatch(/^jax\.errors\.ConcretizationTypeError: Abstract tracer value/);
    expect(await errorOf('jax.jit(lambda x: int(x))(jnp.int32(3))')).toMatch(/^jax\.errors\.ConcretizationTypeError/);
    expect(await errorOf('jax.jit(lambda x: [0, 1][x])(jnp.int32(1))')).toMatch(/^jax\.errors\.TracerIntegerConversionError: The __index__\(\) method was called on traced array with shape int32\[\]/);
    expect(await errorOf('jax.jit(lambda x: bool(x))(jnp.ones(3))')).toBe(
      'builtins.ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()',
    );
    expect(await errorOf('jax.jit(lambda x: x[x > 0])(jnp.ones(3))')).toMatch(/^jax\.errors\.NonConcreteBooleanIndexError: Array boolean indices must be concrete/);
    expect(await errorOf('jax.jit(lambda x: x[0, 0])(jnp.ones(3))')).toMatch(/^builtins\.IndexError: at\.get: Too many indices/);
  });

  test('pytrees (nested dicts and tuples) go through jit, grad and shard_map; decorators work', async () => {
    const out = await py(`
@jax.jit
def f(p, xs):
    return {"sum": p["w"] @ xs[0] + p["b"], "pair": (xs[1] * 2, None)}
tree = f({"w": jnp.ones((2, 3)), "b": jnp.zeros(2)}, (jnp.ones(3), jnp.float32(4)))
g = jax.grad(lambda p: jnp.sum(p["w"] ** 2) + p["b"][1] * 0 + jnp.sum(p["b"][0]))({"w": jnp.ones(2), "b": (jnp.ones(()), jnp.ones(()))})
mesh = jax.make_mesh((8,), ("i",), axis_types=(AxisType.Auto,))
@functools.partial(jax.shard_map, mesh=mesh, in_specs=({"a": P("i"), "b": P()},), out_specs=(P(), {"c": P("i")}))
def body(d):
    return jax.lax.psum(d["a"], "i"), {"c": d["a"] * d["b"]}
sm = jax.make_jaxpr(body)({"a": jnp.ones(8), "b": jnp.ones(())})
(sorted(tree), type(tree["pair"]).__name__, tree["pair"][1], tree["sum"].shape, sorted(g), type(g["b"]).__name__, g["w"].shape,
 jax.tree_util.tree_structure(tree), str(sm).count("psum"), str(sm).count("shard_map"))`);
    expect(out).toBe("(['pair', 'sum'], 'tuple', None, (2,), ['b', 'w'], 'tuple', (2,), PyTreeDef({'pair': (*, None), 'sum': *}), 1, 1)");
  });

  test("jax.numpy's signatures: axis by position or name, dtype=, int shapes, Python ints int32 and floats float32", async () => {
    const out = await py(`
y = jnp.ones((2, 3))
f = jax.jit(lambda a: (jnp.sum(a, 0), jnp.sum(a, 1, jnp.int32), jnp.max(a, 0, True), jnp.mean(a, axis=1, keepdims=True), jnp.zeros(4)))
s0, s1, m, mean, z = f(y)
try:
    jnp.pad(y, 1, "constant", 0)
    pad = "no error"
except TypeError as e:
    pad = str(e)
(s0.shape, s1.dtype.name, m.shape, mean.shape, z.shape, jnp.array([1, 2]).dtype.name, jnp.arange(4.0).dtype.name,
 jax.jit(lambda i: i * 2)(3).dtype.name, pad)`);
    expect(out).toBe("((3,), 'int32', (1, 3), (2, 1), (4,), 'int32', 'float32', 'int32', 'pad() takes from 2 to 3 positional arguments but 4 were given')");
  });

  // Their values are facts of the conformance suite (jnp.hstack, jnp.array, jax.vmap, jnp.linspace, jnp.pad, wrap_key_data).
  test("Python values as JAX converts them: sequences element by element, buffers by their format, unmapped scalars through vmap", async () => {
    const out = await py(`
from array import array
h, v, s = jnp.hstack([1, 2, 3]), jnp.vstack((1, 2.5)), jnp.stack([1, jnp.array(2, jnp.int32)])
c = jnp.concatenate([[1, 2], [3]])
b, f = jnp.asarray(array('i', [2, 3])), jnp.array(array('d', [0.5]))
pair = jax.vmap(lambda x, y: (x + y, y * 2.0), in_axes=(0, None), out_axes=(0, None))(jnp.arange(2.0), 4.0)
spread = jax.vmap(lambda x, y: y * 2.0, in_axes=(0, None))(jnp.arange(2.0), 4.0)
key = jax.random.key(7)
same = jax.random.wrap_key_data(jax.random.key_data(key), dtype=key.dtype) == key
vals, step = jnp.linspace(0, 1, 5, retstep=True)
((h.dtype.name, h.weak_type), (v.shape, v.dtype.name, v.weak_type), (s.dtype.name, s.weak_type), (c.dtype.name, c.weak_type),
 (b.dtype.name, b.shape), (f.dtype.name, f.shape), type(pair[1]).__name__, pair[1], spread.shape,
 jnp.ones((2, 3, 4)).mT.shape, (same.dtype.name, same.shape), (step.dtype.name, step.shape), jnp.pad(jnp.array([1, 2]), 1, "reflect").shape)`);
    expect(out).toBe(
      "(('int32', True), ((2, 1), 'float32', True), ('int32', False), ('int32', False), ('int32', (2,)), ('float32', (1,)), 'float', 8.0, (2,), (2, 4, 3), ('bool', ()), ('float32', ()), (4,))",
    );
  });

  test('vjp and jvp with pytrees, under jit: the derivatives of tanh(a * b) and a * a', async () => {
    const fn = await pythonFunction(`
import jax
import jax.numpy as jnp

def derivs(w, x):
    out, vjp_fn = jax.vjp(lambda a, b: {"y": jnp.tanh(a * b)}, w, x)
    dw, dx = vjp_fn({"y": jnp.ones(3)})
    _, t = jax.jvp(lambda a: (a * a, None), (w,), (jnp.ones(3),))
    return {"y": out["y"], "dw": dw, "dx": dx, "t": t[0]}
`, 'derivs');
    const w = [1, 2, 3];
    const x = [0.5, -0.5, 0.25];
    const out = await sl.jit(fn)(sl.array(w), sl.array(x));
    fn.dispose();
    const sech2 = (v) => 1 - Math.tanh(v) ** 2;
    const close = async (a, want) => (await a.tolist()).forEach((v, i) => expect(v).toBeCloseTo(want[i], 5));
    await close(out.y, w.map((a, i) => Math.tanh(a * x[i])));
    await close(out.dw, w.map((a, i) => x[i] * sech2(a * x[i])));
    await close(out.dx, w.map((a, i) => a * sech2(a * x[i])));
    await close(out.t, w.map((a) => 2 * a));
  });

  test('jax.make_jaxpr from Python prints what sl.makeJaxpr prints for the same program', async () => {
    const text = await py(`
mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
def step(w, x):
    def local(w, x):
        wv = jax.lax.pcast(w, "data", to="varying")
        g = jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w)))(wv)
        return jax.lax.pmean(g, "data")
    return jax.shard_map(local, mesh=mesh, in_specs=(P(), P("data")), out_specs=P())(w, x)
str(jax.make_jaxpr(step)(jnp.ones((3, 2)), jnp.ones((16, 3))))`);
    const { P, lax, np } = sl;
    const mesh = sl.makeMesh([8], ['data'], { axisTypes: ['Auto'] });
    const step = (w, x) =>
      sl.shardMap(
        (w, x) => {
          const wv = lax.pcast(w, 'data', { to: 'varying' });
          const g = sl.grad((w) => np.sum(np.tanh(np.matmul(x, w))))(wv);
          return lax.pmean(g, 'data');
        },
        { mesh, inSpecs: [P(), P('data')], outSpecs: P() },
      )(w, x);
    expect(text).toBe(sl.makeJaxpr(step)(np.ones([3, 2]), np.ones([16, 3])).toString());
    expect(text).toMatch(/shard_map\[/);
  });

  test('axis types as in JAX 0.11: make_mesh is Explicit, where shard_map does not reshard plain inputs (and says how)', async () => {
    const out = await py(`
mesh = jax.make_mesh((8,), ("data",))
f = jax.shard_map(lambda x: jax.lax.psum(x, "data"), mesh=mesh, in_specs=P("data"), out_specs=P())
try:
    jax.make_jaxpr(f)(jnp.ones(8))
    err = "no error"
except ValueError as e:
    err = str(e)
auto = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Auto,))
g = jax.shard_map(lambda x: jax.lax.psum(x, "data"), mesh=auto, in_specs=P("data"), out_specs=P())
placed = jax.make_jaxpr(lambda x: f(jax.device_put(x, jax.sharding.NamedSharding(mesh, P("data")))))(jnp.ones(8))
(str(mesh), repr(mesh), err, str(jax.make_jaxpr(g)(jnp.ones(8))).count("psum"), str(placed).count("shard_map"))`);
    // JAX 0.11's str and repr of a Mesh (jax/_src/mesh.py).
    expect(out).toMatch(/^\("Mesh\('data': 8, axis_types=\(Explicit,\)\)", "Mesh\(axis_sizes=\(8,\), axis_names=\('data',\), axis_types=\(Explicit,\)\)", "in_specs passed to shard_map: P\('data'\) does not match the specs of the input: P\(None\) for arg: float32\[8\]\. `in_specs` is an optional argument.*axis_types=\(AxisType\.Auto,\)\), lets it\.\)", 1, 2\)$/);
    // The same rule in JS: the mesh's axisTypes, a jit argument's sharding.
    const mesh = sl.makeMesh([8], ['data'], { axisTypes: ['Explicit'] });
    const f = (x) => sl.shardMap((b) => sl.lax.psum(b, 'data'), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P() })(x);
    expect(() => sl.makeJaxpr(f)(sl.np.ones([8]))).toThrow(/does not match the specs of the input: P\(None\)/);
    const split = sl.devicePut(sl.np.ones([8]), new sl.NamedSharding(mesh, sl.P('data')));
    expect(await (await sl.jit(f)(split)).tolist()).toEqual([8]);
  });

  test('a syntax error and an exception at import report the learner\'s line', async () => {
    await expect(pythonFunction('def step(x):\n    return x +\n', 'step', 'mine.py')).rejects.toThrow(/File "mine\.py", line 2\n.*SyntaxError/s);
    await expect(pythonFunction('import jax\n\nx = 1 / 0\ndef step(x): return x\n', 'step', 'mine.py')).rejects.toThrow(/File "mine\.py", line 3, in <module>.*ZeroDivisionError: division by zero/s);
    await expect(pythonFunction('def helper(): pass\ndef other(): pass\n', 'step', 'mine.py')).rejects.toThrow(/mine\.py must define the function `step` .*its public functions: helper, other/);
  });
});
