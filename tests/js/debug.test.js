// jax.debug from JS: callback and print at once outside a trace; inside jit
// after each run; in a shardMap body once per device in device order (the
// values each device holds, worked out here); under vmap once per example;
// under grad with primal values; in a loop body once per step; the printed
// text (JAX's: numpy's str, format specs); and a deserialized program's
// prints printed from their format alone (a judge runs none of a sandbox's
// functions, but prints what its program prints).
import { afterEach, beforeAll, expect, test, vi } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { setForeignOutput } from '../../web/lib/api/core/debug_calls.js';

const { np, lax, debug } = sl;
beforeAll(() => sl.init());
afterEach(() => vi.restoreAllMocks());

// The values of the calls f's function received, as nested lists, in order.
async function collected(run) {
  const seen = [];
  await run((...vals) => seen.push(vals.map((v) => (v.dataSync ? listOf(v) : v))));
  return seen;
}
const listOf = (v) => {
  const d = Array.from(v.dataSync());
  const nest = (k, at) => (k === v.shape.length ? d[at] : Array.from({ length: v.shape[k] }, (_, i) => nest(k + 1, at * v.shape[k] + i)));
  return nest(0, 0);
};

test('outside a trace the function runs at once; in a jit, after each run', async () => {
  const x = sl.array([1, 2, 3]);
  expect(await collected(async (fn) => expect(debug.callback(fn, x, 5)).toBe(false))).toEqual([[[1, 2, 3], 5]]);
  const seen = await collected(async (fn) => {
    const f = sl.jit((v) => {
      expect(debug.callback(fn, np.multiply(v, 2))).toBe(true);
      return np.add(v, 1);
    });
    await (await f(x)).tolist();
    await (await f(sl.array([10, 20, 30]))).tolist();
  });
  expect(seen).toEqual([[[2, 4, 6]], [[20, 40, 60]]]);
});

test('in a shardMap body: each device its block, in device order; a psum then the same on each', async () => {
  const mesh = sl.makeMesh([8], ['i']);
  const xs = Array.from({ length: 16 }, (_, k) => k);
  const seen = await collected(async (fn) => {
    const f = sl.shardMap(
      (b) => {
        debug.callback(fn, b);
        debug.callback(fn, lax.psum(b, 'i'));
        return b;
      },
      { mesh, inSpecs: sl.P('i'), outSpecs: sl.P('i') },
    );
    await f(sl.array(xs)).tolist(); // its outputs once the run has ended, and its calls with them
  });
  expect(seen.slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, d) => [[2 * d, 2 * d + 1]]));
  expect(seen.slice(8)).toEqual(Array.from({ length: 8 }, () => [[56, 64]]));
});

test('under vmap once per example, under grad with the primal values, in a loop once per step', async () => {
  const perExample = await collected(async (fn) => {
    await (await sl.jit(sl.vmap((v) => (debug.callback(fn, v), v)))(sl.array([[1, 2], [3, 4], [5, 6]]))).tolist();
  });
  expect(perExample).toEqual([[[1, 2]], [[3, 4]], [[5, 6]]]);
  const primals = await collected(async (fn) => {
    const g = await sl.grad((v) => (debug.callback(fn, v), np.sum(np.multiply(v, v))))(sl.array([1.5, -2]));
    expect(await g.tolist()).toEqual([3, -4]);
  });
  expect(primals).toEqual([[[1.5, -2]]]);
  const steps = await collected(async (fn) => {
    await (await sl.jit(() => lax.foriLoop(0, 4, (i, c) => (debug.callback(fn, i), c), np.zeros([])))()).tolist();
  });
  expect(steps).toEqual([[0], [1], [2], [3]]);
});

test("print fills {} and {n} as JAX's: an array as numpy's str, !r its repr, a spec a 0-d array's element; other values written in", async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const v = sl.array([[1, 2]], { dtype: 'int32' });
  await sl.jit((v) => (debug.print('x = {0}, twice {1}, again {0}', v, np.multiply(v, 2)), v))(v);
  await sl.jit((v) => (debug.print('{} mean {:.3f} {!r} {} {:>5}', v, np.mean(v), np.divide(v, 4), 'step', 7), v))(sl.array([0.5, 1, 2.5]));
  debug.print('{{braces}} {:+.1e}', sl.array(-1234.5)); // at once, outside a trace
  expect(log.mock.calls).toEqual([
    ['x = [[1 2]], twice [[2 4]], again [[1 2]]'],
    ['[0.5 1.  2.5] mean 1.333 Array([0.125, 0.25 , 0.625], dtype=float32) step     7'],
    ['{braces} -1.2e+03'],
  ]);
  // Python's errors, at the call: a field past the arguments, numbering mixed, a spec on an array of more than one element.
  expect(() => debug.print('{} {}', 1)).toThrow(/names argument 1, but 1 was given/);
  expect(() => debug.print('{} {0}', 1)).toThrow(/cannot switch from automatic field numbering to manual/);
  expect(() => sl.makeJaxpr((v) => debug.print('{:.2f}', v))(sl.array([1, 2]))).toThrow(/unsupported format string passed to numpy.ndarray.__format__/);
  expect(() => debug.print('{:q}', sl.array(1))).toThrow(/Unknown format code 'q' for object of type 'float'/);
});

test("a deserialized program's prints print from their format alone, to the foreign output (a judge's) if one is set; its callbacks are told, never run", async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const called = vi.fn();
  const fn = sl.jit((v) => (debug.print('in the sandbox {} sum {:.1f}', v, np.sum(v)), debug.callback(called, v), np.add(v, 1)));
  const exported = await sl.export.export(fn)(sl.array([1, 2]));
  const text = await exported.serialize();
  log.mockClear();
  const rebuilt = sl.export.deserialize(text);
  expect(await (await rebuilt.call(sl.array([1, 2]))).tolist()).toEqual([2, 3]); // no foreign output: nothing printed
  const seen = [];
  const before = setForeignOutput((t, device) => seen.push([t, device]));
  try {
    await (await rebuilt.call(sl.array([5, 6.5]))).tolist();
    // A format that does not fit its values, or names no operand (hostile: the sandbox writes it), is said, not thrown.
    const odd = sl.export.deserialize(text.replace('in the sandbox {0} sum {1:.1f}', '{0:.2f}'));
    await (await odd.call(sl.array([5, 6]))).tolist();
    await (await sl.export.deserialize(text.replace('in the sandbox {0} sum {1:.1f}', 'x {7}')).call(sl.array([5, 6]))).tolist();
  } finally {
    setForeignOutput(before);
  }
  // Each run's jax.debug.callback call is told (null), not run.
  expect(seen).toEqual([
    ['in the sandbox [5.  6.5] sum 11.5', -1],
    [null, -1],
    ['(jax.debug.print: unsupported format string passed to numpy.ndarray.__format__)', -1],
    [null, -1],
    ['(jax.debug.print: the format "x {7}" names argument 7, but 2 were given)', -1],
    [null, -1],
  ]);
  expect(log).not.toHaveBeenCalled();
  expect(called).not.toHaveBeenCalled();
});
