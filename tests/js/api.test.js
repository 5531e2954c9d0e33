// The JS API beyond the seed problems: trees and spec prefixes, eager
// operations, caching, autodiff forms, sharding placement and pictures,
// error categories with their messages, tracer concretization, lifetime.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { P, np, lax, nn } = sl;
let mesh;
let mesh2d;
beforeAll(async () => {
  await sl.init();
  mesh = sl.makeMesh([8], ['data']);
  mesh2d = sl.makeMesh([2, 4], ['data', 'model']);
});

const close = (a, b, tol = 1e-5) => [a].flat(Infinity).forEach((v, i) => expect(Math.abs(v - [b].flat(Infinity)[i])).toBeLessThanOrEqual(tol));

describe('trees, eager operations and caching', () => {
  test('jit takes and returns trees; a spec may cover a subtree', async () => {
    const f = sl.jit((params, x) =>
      sl.shardMap((p, x) => ({ y: lax.psum(x.mul(p.w).add(p.b), 'data'), n: p.w }), {
        mesh,
        inSpecs: [P(), P('data')],
        outSpecs: { y: P(), n: P() },
      })(params, x),
    );
    const out = await f({ w: 2, b: sl.array(1) }, sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(Object.keys(out).sort()).toEqual(['n', 'y']);
    close(await out.y.tolist(), [2 * 36 + 8]);
    close(await out.n.tolist(), 2);
  });

  test('a reduction over a tree is one equation (as JAX binds it) with each leaf summed', async () => {
    const f = (a, b) => sl.shardMap((a, b) => lax.psum({ a, b }, 'data'), { mesh, inSpecs: [P('data'), P('data')], outSpecs: P() })(a, b);
    const a = Array.from({ length: 8 }, (_, i) => i + 1);
    const b = Array.from({ length: 16 }, (_, i) => i * 0.5);
    const text = String(sl.makeJaxpr(f)(sl.array(a), sl.array(b)));
    expect(text.match(/psum\[/g)).toHaveLength(1);
    expect(text).toMatch(/\w+:f32\[1\] \w+:f32\[2\] = psum\[axes=\('data',\)\] \w+ \w+/);
    const out = await sl.jit(f)(sl.array(a), sl.array(b));
    close(await out.a.tolist(), [36]);
    close(await out.b.tolist(), [0.5 * (0 + 2 + 4 + 6 + 8 + 10 + 12 + 14), 0.5 * (1 + 3 + 5 + 7 + 9 + 11 + 13 + 15)]);
  });

  test('a second call with the same signature does not trace again', async () => {
    let traces = 0;
    const f = sl.jit((x) => {
      traces += 1;
      return x.mul(2);
    });
    await f(sl.array([1, 2]));
    await f(sl.array([3, 4]));
    expect(traces).toBe(1);
    await f(sl.array([1, 2, 3]));
    expect(traces).toBe(2);
  });

  test('eager numpy on arrays returns arrays (futures), with broadcasting', async () => {
    const a = sl.array([[1, 2, 3], [4, 5, 6]]);
    const y = np.add(a, [10, 20, 30]);
    expect(y.shape).toEqual([2, 3]);
    expect(await y.tolist()).toEqual([[11, 22, 33], [14, 25, 36]]);
    expect(await a.sum({ axis: 1, keepdims: true }).tolist()).toEqual([[6], [15]]);
    expect(await a.T.matmul([1, 1]).tolist()).toEqual([5, 7, 9]);
    expect(await np.where(np.greater(a, 3), a, 0).tolist()).toEqual([[0, 0, 0], [4, 5, 6]]);
    close(await nn.softmax(sl.array([0, Math.log(3)])).tolist(), [0.25, 0.75]);
  });

  test('grad, valueAndGrad with argnums and hasAux, vjp and jvp', async () => {
    const f = (w, x) => w.mul(x).square().sum();
    const w = sl.array([1, 2]);
    const x = sl.array([3, 4]);
    close(await sl.grad(f)(w, x).tolist(), [18, 64]);
    const [v, [gw, gx]] = sl.valueAndGrad(f, { argnums: [0, 1] })(w, x);
    close(await v.item(), 9 + 64);
    close(await gx.tolist(), [6, 32]);
    const [[v2, aux], g2] = sl.valueAndGrad((w) => [w.square().sum(), w.mul(3)], { hasAux: true })(w);
    close(await v2.item(), 5);
    close(await aux.tolist(), [3, 6]);
    close(await g2.tolist(), [2, 4]);
    const out = await sl.jit((w) => {
      const [y, back] = sl.vjp((w) => w.exp(), w);
      const [, t] = sl.jvp((w) => w.exp(), [w], [np.onesLike(w)]);
      return [y, back(np.onesLike(w))[0], t];
    })(w);
    close(await out[1].tolist(), [Math.E, Math.E ** 2], 1e-4);
    close(await out[2].tolist(), [Math.E, Math.E ** 2], 1e-4);
    // A JS number cotangent is a float (JS has no int literals), eagerly and under jit.
    const sines = (v) => np.sum(np.sin(v));
    close(await sl.vjp(sines, w)[1](1)[0].tolist(), [Math.cos(1), Math.cos(2)]);
    close(await (await sl.jit((v) => sl.vjp(sines, v)[1](2)[0])(w)).tolist(), [2 * Math.cos(1), 2 * Math.cos(2)]);
  });
});

describe('placement', () => {
  test('devicePut splits by a NamedSharding; addressableShards and visualizeSharding show the blocks', async () => {
    const x = sl.devicePut(sl.array([[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16]]), new sl.NamedSharding(mesh2d, P('data', 'model')));
    await x.blockUntilReady();
    const shards = x.addressableShards;
    expect(shards).toHaveLength(8);
    expect(shards[5].index).toEqual([[1, 2], [2, 4]]);
    expect([...shards[5].data]).toEqual([11, 12]);
    // JAX's table without colors (jax/_src/debugging.py): f32[2,8] on a 2x4 mesh, a cell per block, its
    // width int(1/4 · 40 · 2.5) = 25 less the 2 borders, "CPU d" padded by 9 each side; its height int(1/2 · 10)
    // = 5 less 2: 1 blank line, the entry, 2 blank.
    const cell = (d) => `${' '.repeat(9)}CPU ${d}${' '.repeat(9)}`;
    const blank = `│${Array(4).fill(' '.repeat(23)).join('│')}│`;
    const row = (r) => [blank, `│${[0, 1, 2, 3].map((c) => cell(r * 4 + c)).join('│')}│`, blank, blank];
    const rule = (l, m, r) => l + Array(4).fill('─'.repeat(23)).join(m) + r;
    expect(sl.visualizeSharding(x).split('\n')).toEqual([rule('┌', '┬', '┐'), ...row(0), rule('├', '┼', '┤'), ...row(1), rule('└', '┴', '┘')]);
  });

  test('devicePut inside jit constrains the layout of a value', async () => {
    const f = sl.jit((x) => sl.devicePut(x.mul(2), new sl.NamedSharding(mesh, P('data'))));
    const y = await f(sl.array([1, 2, 3, 4, 5, 6, 7, 8]));
    expect(y.sharding.spec.toString()).toBe("P('data')");
    expect(await y.tolist()).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    expect([...y.addressableShards[3].data]).toEqual([8]);
  });

  test('a mesh of 2x4 runs collectives over one axis', async () => {
    const f = sl.jit((x) => sl.shardMap((b) => lax.psum(b, 'model'), { mesh: mesh2d, inSpecs: P('data', 'model'), outSpecs: P('data') })(x));
    const out = await f(sl.array([[1, 2, 3, 4], [5, 6, 7, 8]]));
    expect(await out.tolist()).toEqual([[10], [26]]);
  });
});

describe('errors name the operation, the shapes or axes, and what is valid', () => {
  test("shapes that do not broadcast: JAX's TypeError of the primitive (ShapeError) for one rank, else jnp's ValueError; ShapeError: a matmul whose contracted sizes differ", () => {
    expect(() => sl.makeJaxpr((a, b) => np.add(a, b))(sl.array([[1, 2, 3]]), sl.array([1, 2]))).toThrow(new sl.ValueError('np.add: Incompatible shapes for broadcasting: shapes=[(1, 3), (2,)]'));
    expect(() => sl.makeJaxpr((a, b) => np.add(a, b))(sl.array([1, 2, 3]), sl.array([1, 2]))).toThrow(new sl.ShapeError('add got incompatible shapes for broadcasting: (3,), (2,).'));
    expect(() => sl.makeJaxpr((a, b) => a.matmul(b))(sl.array([[1, 2]]), sl.array([[1, 2]]))).toThrow(sl.ShapeError);
    expect(() => sl.makeJaxpr((a, b) => a.matmul(b))(sl.array([[1, 2]]), sl.array([[1, 2]]))).toThrow(/matmul: f32\[1,2\] @ f32\[1,2\]/);
  });

  test('ShardingError: a dimension the spec cannot split evenly', () => {
    const f = (x) => sl.shardMap((b) => b, { mesh, inSpecs: P('data'), outSpecs: P('data') })(x);
    expect(() => sl.makeJaxpr(f)(sl.array([1, 2, 3, 4, 5, 6]))).toThrow(sl.ShardingError);
    expect(() => sl.makeJaxpr(f)(sl.array([1, 2, 3, 4, 5, 6]))).toThrow(
      /^shard_map applied to the function '<anonymous>' was given argument arrays with axis sizes that are not evenly divisible[\s\S]*the passed args\[0\] of shape float32\[6\] corresponds to in_specs of value P\('data',\), which maps array axis 0 \(of size 6\) to mesh axis 'data' \(of size 8\), but 8 does not evenly divide 6/,
    );
  });

  test('ShardingError: a program whose shard_maps use two meshes, nested ones included, is refused when it runs (the core\'s rule)', async () => {
    const other = sl.makeMesh([4, 2], ['data', 'model']);
    const twice = (m) => (x) => sl.shardMap((b) => b.mul(2), { mesh: m, inSpecs: P('data'), outSpecs: P('data') })(x);
    const f = sl.jit((x) => lax.cond(x.sum().gt(0), twice(other), (v) => v, twice(mesh)(x)));
    const x = sl.array([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(sl.makeJaxpr(f)(x).toString()).toContain('shard_map'); // tracing and printing it is fine, as in JAX
    const error = await f(x).catch((e) => e);
    expect(error).toBeInstanceOf(sl.ShardingError);
    expect(error.message).toBe(`run: one program uses two meshes (Mesh('data': 8) and Mesh('data': 4, 'model': 2)); use one mesh per program`);
    // The same mesh twice (another object, the same shape and names) is one mesh.
    const same = sl.jit((v) => twice(sl.makeMesh([8], ['data']))(twice(mesh)(v)));
    expect(await (await same(x)).tolist()).toEqual([4, 8, 12, 16, 20, 24, 28, 32]);
  });

  test('VmaError: out_specs P() on a value varying along data', () => {
    const f = (x) => sl.shardMap((b) => b.mul(2), { mesh, inSpecs: P('data'), outSpecs: P() })(x);
    expect(() => sl.makeJaxpr(f)(sl.array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(sl.VmaError);
    expect(() => sl.makeJaxpr(f)(sl.array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/out_specs is P\(\) which implies that the corresponding output value is replicated across mesh axis 'data'[\s\S]*Output 0 \(f32\[1\]\{V:data\}\) has out_specs P\(\) but varies along mesh axis 'data'/);
    // check_vma off: no error.
    const g = (x) => sl.shardMap((b) => b.mul(2), { mesh, inSpecs: P('data'), outSpecs: P(), checkVma: false })(x);
    expect(sl.makeJaxpr(g)(sl.array([1, 2, 3, 4, 5, 6, 7, 8])).toString()).toContain('check_vma=False');
  });

  test('ValueError: unknown and unbound axes', () => {
    const f = (x) => sl.shardMap((b) => lax.psum(b, 'model'), { mesh, inSpecs: P('data'), outSpecs: P() })(x);
    expect(() => sl.makeJaxpr(f)(sl.array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(sl.ValueError);
    expect(() => sl.makeJaxpr(f)(sl.array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(sl.AxisNameError);
    expect(() => sl.makeJaxpr(f)(sl.array([1, 2, 3, 4, 5, 6, 7, 8]))).toThrow(/unbound axis name: model\./);
    expect(() => sl.makeJaxpr((x) => lax.psum(x, 'data'))(sl.array([1]))).toThrow(/^Found an unbound axis name: data\. To fix this, please call psum under `jax\.shard_map`\.$/);
  });

  test('ConcretizationError: a traced value used as a number; String(t) describes it', () => {
    let described = '';
    const f = (x) => {
      described = String(x);
      return Number(x) > 0 ? x : x.neg();
    };
    expect(() => sl.makeJaxpr(f)(sl.array(1))).toThrow(sl.ConcretizationError);
    expect(described).toBe('Traced<f32[]>with<make_jaxpr>');
    expect(() => sl.makeJaxpr((x) => x * 2)(sl.array(1))).toThrow(/Traced<f32\[\]>with<make_jaxpr> was converted to a number/);
    expect(() => sl.makeJaxpr((x) => x + 1)(sl.array(1))).toThrow(/Traced<f32\[\]>with<make_jaxpr> was used as a JS number/);
    expect(() => sl.makeJaxpr((x) => (x > 0 ? x : x))(sl.array(1))).toThrow(sl.ConcretizationError);
  });

  test('an exception thrown by user code while tracing propagates unchanged', async () => {
    const mine = new RangeError('mine');
    const f = sl.jit(() => {
      throw mine;
    });
    await expect(f(sl.array(1))).rejects.toBe(mine);
  });

  test('a failing device rejects the job with its error; the runtime stays usable', () => {
    // In its own process: faults need the test build of the module (web/lib/testing.js initTestBuild).
    const script = fileURLToPath(new URL('./fixtures/fault.mjs', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 60000 }).trim().split('\n').pop());
    expect(out.errors).toEqual([
      { isShardLabError: true, message: 'device 3: injected failure on device 3' },
      { isShardLabError: true, message: 'device 3: injected failure on device 3' },
    ]);
    expect(out.after).toEqual([2]);
  }, 60000);

  test('ResourceError: more memory than the heap has; the runtime stays usable', () => {
    // In its own process, so the rest of this file keeps a small heap.
    const script = fileURLToPath(new URL('./fixtures/oom.mjs', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 60000 }).trim().split('\n').pop());
    expect(out.error).toMatchObject({ name: 'ResourceError', isResourceError: true });
    expect(out.error.message).toMatch(/cannot allocate 2147483648 bytes .*the device memory is exhausted/);
    expect(out.after).toEqual([2]);
  }, 60000);

  test('a disposed array is a clear error', async () => {
    const a = sl.array([1, 2]);
    a.dispose();
    await expect(a.data()).rejects.toThrow(/data: the array f32\[2\] was disposed/);
  });
});

describe('lifetime', () => {
  test('10,000 calls of a jit step keep the wasm heap flat', async () => {
    const step = sl.jit((w, x, lr) =>
      sl.shardMap((w, x) => w.sub(lax.pmean(x.sum({ axis: 0 }), 'data').mul(lr)), { mesh, inSpecs: [P(), P('data')], outSpecs: P() })(w, x),
    );
    const x = sl.devicePut(sl.array(Array.from({ length: 16 }, (_, i) => [i, -i])), new sl.NamedSharding(mesh, P('data')));
    let w = sl.array([0, 0]);
    const run = async (n) => {
      for (let i = 0; i < n; i++) {
        const next = await step(w, x, 0.001);
        w.dispose();
        w = next;
      }
    };
    await run(200);
    const before = sl.memoryStats().inUse;
    await run(10000);
    const after = sl.memoryStats().inUse;
    expect(after - before).toBeLessThan(64 * 1024);
    close(await w.tolist(), [-0.001 * 10200 * 120 / 8, 0.001 * 10200 * 120 / 8], 1e-1);
  }, 120000);

  test('JS-number arguments: each call sees its own value (float32, signed zero), also past the reuse of device copies', async () => {
    const f = sl.jit((x, s) => sl.shardMap((x, s) => x.mul(s), { mesh, inSpecs: [P('data'), P()], outSpecs: P('data') })(x, s));
    const x = sl.array(Array.from({ length: 8 }, (_, i) => i + 1));
    // Many more distinct scalars than are kept on the devices, in flight together.
    const scalars = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? -0.1 : 0.7) * (i + 1));
    const outs = await Promise.all(scalars.map((s) => f(x, s)));
    for (const [i, out] of outs.entries()) {
      const expected = Array.from({ length: 8 }, (_, k) => Math.fround(Math.fround(scalars[i]) * (k + 1)));
      expect(await out.tolist()).toEqual(expected);
      out.dispose();
    }
    const [neg, pos] = await Promise.all([f(x, -0), f(x, 0)]).then((o) => Promise.all(o.map((a) => a.tolist())));
    expect(neg.every((v) => Object.is(v, -0))).toBe(true);
    expect(pos.every((v) => Object.is(v, 0))).toBe(true);
    // Distinct scalars on every call keep the heap flat too.
    const before = sl.memoryStats().inUse;
    for (let i = 0; i < 2000; i++) (await f(x, i / 7)).dispose();
    expect(sl.memoryStats().inUse - before).toBeLessThan(64 * 1024);
  }, 60000);
});
