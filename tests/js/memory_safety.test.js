// Memory safety of the runtime (issue 16): every element and byte count is
// checked in 64 bits before anything is allocated, so a shape past the
// device memory is a ResourceError and a bad dimension a ValueError, both
// naming the function and the argument, with the runtime usable afterwards;
// and freed device memory is reused, so a program with a 1 GB intermediate
// runs again and again without growing the wasm heap.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { state } from '../../web/lib/api/core/state.js';

const { np, lax } = sl;
let mesh;
beforeAll(async () => {
  await sl.init();
  mesh = sl.makeMesh([8], ['data']);
});

const FOUR_GIB = [65536, 16384]; // 2^32 bytes of float32: 0 when counted in wasm's 32-bit size_t
const TWO_GIB = [32768, 16384]; // 2^31 bytes: all of the 2 GiB the wasm heap may grow to
const LIMIT = '2147483648 bytes \\(2 GiB\\) of device memory';

// The next call works, in the same runtime.
async function expectUsable() {
  const runtime = state.runtime;
  const out = await sl.jit((x) => x.add(1))(sl.array([1, 2]));
  expect(await out.tolist()).toEqual([2, 3]);
  expect(state.runtime).toBe(runtime);
  expect(runtime.deadReason).toBeNull();
}

describe('an array past the device memory is a ResourceError, and the runtime stays usable', () => {
  test('2^32 bytes: np.zeros, np.ones, np.full, np.broadcastTo, lax.broadcastInDim name the function, the shape, its bytes and the limit', async () => {
    const cases = [
      ['np.zeros', () => np.zeros(FOUR_GIB)],
      ['np.ones', () => np.ones(FOUR_GIB)],
      ['np.full', () => np.full(FOUR_GIB, 7.5)],
      ['np.broadcastTo', () => np.broadcastTo(1.5, FOUR_GIB)],
      ['lax.broadcastInDim', () => lax.broadcastInDim(1.5, FOUR_GIB, [])],
    ];
    for (const [fn, make] of cases) {
      expect(make).toThrow(sl.ResourceError);
      expect(make).toThrow(new RegExp(`^${fn.replace('.', '\\.')}: shape \\[65536,16384\\] of float32 needs 4294967296 bytes \\(4 GiB\\), more than the ${LIMIT}`));
      await expectUsable();
    }
  });

  test('2^31 bytes pass the shape checks and fail when allocated, without growing the heap', async () => {
    const heap = sl.memoryStats().heapSize;
    for (const make of [() => np.zeros(TWO_GIB), () => np.ones(TWO_GIB, 'int32'), () => np.full(TWO_GIB, 3), () => np.broadcastTo(2, TWO_GIB)]) {
      const a = make();
      await expect(a.blockUntilReady()).rejects.toThrow(sl.ResourceError);
      await expect(a.blockUntilReady()).rejects.toThrow(/cannot allocate 2147483648 bytes for device 0; the device memory is exhausted/);
      await expectUsable();
    }
    expect(sl.memoryStats().heapSize).toBe(heap);
  });

  test('reshape of a small array into a huge shape under jit', async () => {
    const x = sl.array([1, 2, 3, 4]);
    await expect(sl.jit((x) => x.reshape(FOUR_GIB))(x)).rejects.toThrow(
      new RegExp(`^reshape: shape \\[65536,16384\\] of float32 needs 4294967296 bytes \\(4 GiB\\), more than the ${LIMIT}`),
    );
    // A product that wraps around 2^64 to exactly 4 elements: (2^32 + 1)(2^32 - 1) = 2^64 - 1 = -1 (mod 2^64).
    const wraps = [4, 2 ** 32 + 1, 2 ** 32 - 1, 2 ** 32 + 1, 2 ** 32 - 1];
    await expect(sl.jit((x) => x.reshape(wraps))(x)).rejects.toThrow(sl.ResourceError);
    await expect(sl.jit((x) => x.reshape(TWO_GIB))(x)).rejects.toThrow(sl.ShapeError); // fits, but not 4 elements
    await expectUsable();
  });

  test('a jit whose intermediate is huge: a broadcast, a product, a padding', async () => {
    await expect(sl.jit((s) => np.broadcastTo(s, FOUR_GIB).sum())(1)).rejects.toThrow(/^np\.broadcastTo: shape \[65536,16384\] of float32 needs 4294967296 bytes/);
    // Shape rules whose results are huge although their operands are small.
    const col = np.ones([65536, 1]);
    const row = np.ones([1, 16384]);
    await expect(sl.jit((a, b) => np.matmul(a, b).sum())(col, row)).rejects.toThrow(
      new RegExp(`^dot_general: the result f32\\[65536,16384\\] needs 4294967296 bytes \\(4 GiB\\), more than the ${LIMIT}`),
    );
    await expect(sl.jit((x) => lax.pad(x, 0, [[0, 2 ** 30, 0]]).sum())(sl.array([1, 2]))).rejects.toThrow(
      /^pad: the result f32\[1073741826\] needs 4294967304 bytes \(4 GiB\)/,
    );
    await expectUsable();
    // All of the device memory passes the checks and fails when the devices allocate it.
    await expect(sl.jit((s) => np.broadcastTo(s, TWO_GIB).sum())(1)).rejects.toThrow(/cannot allocate 2147483648 bytes .*the device memory is exhausted/);
    await expectUsable();
  });
});

describe('a bad dimension is a ValueError naming the function and the argument', () => {
  const BAD = [2.5, NaN, -1, Infinity, '3'];
  const quoted = (d) => (typeof d === 'string' ? `'${d}'` : String(d));

  test('np.zeros, np.ones, np.full, np.broadcastTo, reshape, lax.broadcastInDim, sl.array, ShapeDtypeStruct', async () => {
    const makers = [
      ['np.zeros', 'shape', (s) => np.zeros(s)],
      ['np.ones', 'shape', (s) => np.ones(s)],
      ['np.full', 'shape', (s) => np.full(s, 1)],
      ['np.broadcastTo', 'shape', (s) => np.broadcastTo(1, s)],
      ['reshape', 'shape', (s) => sl.array([1, 2]).reshape(s)],
      ['lax.broadcastInDim', 'shape', (s) => lax.broadcastInDim(1, s, [])],
      ['array', 'shape', (s) => sl.array(new Float32Array(2), { shape: s })],
      ['ShapeDtypeStruct', 'shape', (s) => new sl.ShapeDtypeStruct(s)],
    ];
    for (const [fn, arg, make] of makers) {
      for (const d of BAD) {
        if (fn === 'reshape' && d === -1) continue; // reshape infers one -1
        const shape = [2, d];
        expect(() => make(shape), `${fn}(${quoted(d)})`).toThrow(sl.ValueError);
        expect(() => make(shape)).toThrow(`${fn}: ${arg}[1] is ${quoted(d)} in ${arg} [2,${quoted(d)}]; dimensions must be integers in 0..9007199254740991`);
      }
    }
    expect(() => sl.array([1, 2]).reshape([-1, -1])).toThrow(/^reshape: shape\[1\] is -1 .*or -1 once/);
    expect(() => np.zeros('3')).toThrow(/^np\.zeros: shape must be an array of dimensions \(integers >= 0\), got '3'/);
    expect(() => np.arange(0, Infinity)).toThrow(/^np\.arange: start=0, stop=Infinity, step=1 give Infinity elements/);
    expect(() => np.arange(0, 1, 0)).toThrow(sl.ValueError);
    expect(() => lax.iota('int32', 2.5)).toThrow(/^lax\.iota: size is 2\.5; it must be an integer in 0\.\.9007199254740991/);
    // Under jit too, and [2.5] is no longer silently [2].
    await expect(sl.jit(() => np.zeros([2.5]))()).rejects.toThrow(/^np\.zeros: shape\[0\] is 2\.5/);
    await expectUsable();
  });

  test('the core checks the shapes that enter it from JS as well (its line of defence)', async () => {
    const { Module } = state.runtime; // the wasm module's own classes, past the JS API's checks
    const trace = state.runtime.traces.top();
    try {
      const core = (f) => {
        try {
          f();
        } catch (e) {
          return `${e.name}: ${e.message}`;
        }
        return 'no error';
      };
      const one = { literal: 1, dtype: 'float32', shape: [], vma: [] };
      for (const d of BAD) {
        expect(core(() => trace.input('float32', [d], false, null))).toBe(`ValueError: input: shape[0] is ${quoted(d)}; dimensions must be integers in 0..9007199254740991`);
        if (d !== -1) {
          expect(core(() => trace.emit('broadcast_in_dim', { shape: [2, d], broadcast_dimensions: [] }, [one]))).toBe(
            `ValueError: broadcast_in_dim: parameter 'shape' entry 1 is ${quoted(d)}; expected an integer in -9007199254740991..9007199254740991`,
          );
        }
        expect(core(() => Module.ShardedArray.put(mesh._handle, 'float32', [d], [], 0))).toBe(
          `ValueError: put: shape[0] is ${quoted(d)}; dimensions must be integers in 0..9007199254740991`,
        );
      }
      expect(core(() => trace.emit('broadcast_in_dim', { shape: [-1], broadcast_dimensions: [] }, [one]))).toBe(
        'ValueError: broadcast_in_dim: shape [-1] has dimension -1 at position 0; dimensions must be integers in 0..9007199254740991',
      );
      expect(core(() => trace.emit('broadcast_in_dim', { shape: FOUR_GIB, broadcast_dimensions: [] }, [one]))).toBe(
        'ResourceError: broadcast_in_dim: the result f32[65536,16384] needs 4294967296 bytes (4 GiB), more than the 2147483648 bytes (2 GiB) of device memory; arrays must fit in it',
      );
      const x = trace.input('float32', [4], false, null);
      expect(core(() => trace.emit('reshape', { new_sizes: [4, 2 ** 32 + 1, 2 ** 32 - 1, 2 ** 32 + 1, 2 ** 32 - 1] }, [x]))).toMatch(
        /^ResourceError: reshape: new_sizes f32\[4,4294967297,4294967295,4294967297,4294967295\] needs 5\.44e\+39 bytes, more than/,
      );
      expect(core(() => new Module.DeviceMesh([2.5], ['data']))).toBe('ValueError: Mesh: shape[0] is 2.5; dimensions must be integers in 0..9007199254740991');
    } finally {
      trace.delete();
    }
    await expectUsable();
  });
});

describe('freed device memory is reused', () => {
  test('a program whose intermediate needs 1 GB runs 10 times; the heap does not grow after the first run', async () => {
    // 2^28 float32 (1 GiB) from a scalar; one element of it comes out (a sum would double the time).
    const f = sl.jit((s) => lax.slice(np.broadcastTo(s, [2 ** 28]), [0], [1]));
    const inUse = sl.memoryStats().inUse;
    const heaps = [];
    for (let i = 0; i < 10; i++) {
      const out = await f(i);
      expect(await out.tolist()).toEqual([i]);
      out.dispose();
      heaps.push(sl.memoryStats().heapSize);
    }
    expect(heaps[0]).toBeGreaterThan(2 ** 30); // the intermediate was allocated
    // Flat from the first run on: a new span leaves room above itself for the
    // small allocations that come and go (runtime/large_blocks.cc).
    expect(heaps).toEqual(Array(10).fill(heaps[0]));
    expect(sl.memoryStats().inUse - inUse).toBeLessThan(1 << 20); // the span it lives in counts as free
  }, 120000);

  test('a program whose intermediate needs 1.6 GB runs twice', () => {
    // In its own process: a fresh heap (this one holds a 1 GB span by now).
    const script = fileURLToPath(new URL('./fixtures/reuse.mjs', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, [script, String(1600 * 2 ** 18), '2'], { encoding: 'utf8', timeout: 120000 }).trim().split('\n').pop());
    expect(out.errors).toEqual([]);
    expect(out.results).toEqual([1, 2]);
    expect(out.heaps[0]).toBeGreaterThan(1600 * 2 ** 20);
    expect(out.heaps[1]).toBe(out.heaps[0]);
  }, 120000);

  test("a host array that fits only where a freed intermediate's span is gets that memory", () => {
    // In its own process: a 1.5 GiB intermediate, then a 512 MiB array put (see the fixture).
    const script = fileURLToPath(new URL('./fixtures/put_after_span.mjs', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 120000 }).trim().split('\n').pop());
    expect(out.error).toBeNull();
    expect(out.element).toBe(3);
    expect(out.heaps[1]).toBe(out.heaps[0]); // the put used the span's memory, not 1 GiB more
  }, 120000);
});
