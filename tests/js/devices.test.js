// The wasm device runtime in Node: collectives on the 8 worker_thread devices
// against serial references, errors with their categories, a failing device
// and a trapping device, and fresh runtimes with fewer devices.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { loadDevices } from '../../web/lib/engine/devices.js';
import { InThreadExecutor } from '../../web/lib/engine/in_thread_executor.js';
import { injectFault, loadTestDevices, runRepeated } from '../../web/lib/testing.js';

let rt;
let mesh;
beforeAll(async () => {
  rt = await loadDevices();
  mesh = rt.mesh([8], ['data']);
});
afterAll(() => rt?.terminate());

function seeded(n, seed) {
  // A small LCG, so the data is the same on every run.
  let s = seed >>> 0;
  return new Float32Array(n).map(() => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  });
}

// Serial float32 reduction over the 8 blocks of `host` in device order.
function serialPsum(host, n) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let acc = host[i];
    for (let d = 1; d < 8; d++) acc = Math.fround(acc + host[d * n + i]);
    out[i] = acc;
  }
  return out;
}

describe('psum on the 8 workers', () => {
  for (const n of [1, 37, 5000, 1 << 18]) {
    test(`${n} floats per device equals the serial float32 sum bitwise`, async () => {
      const host = seeded(8 * n, n);
      const x = rt.put(mesh, host, [8 * n], ['data']);
      const y = await rt.collective(mesh, x, { op: 'psum', axisName: 'data' }, []);
      expect(y.shape()).toEqual([n]);
      const got = rt.get(y);
      const want = serialPsum(host, n);
      expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer))).toBe(true);
      x.delete();
      y.delete();
    });
  }
});

test('all_gather, ppermute and axis_index on a 2x4 mesh', async () => {
  const m = rt.mesh([2, 4], ['data', 'model']);
  const host = Float32Array.from({ length: 8 }, (_, i) => i);
  const x = rt.put(m, host, [8], [['data', 'model']]);
  // all_gather's result is typed varying along its axes, as in JAX (whose
  // check_vma would refuse ['data'] here): each device keeps its copy, and get() checks they agree.
  const g = await rt.collective(m, x, { op: 'all_gather', axisName: 'model', tiled: true, checkVma: false }, ['data']);
  expect(Array.from(rt.get(g))).toEqual(Array.from(host));
  const ring = [0, 1, 2, 3].map((i) => [i, (i + 1) % 4]);
  const p = await rt.collective(m, x, { op: 'ppermute', axisName: 'model', perm: ring }, [['data', 'model']]);
  expect(Array.from(rt.get(p))).toEqual([3, 0, 1, 2, 7, 4, 5, 6]);
  const idx = await rt.collective(m, x, { op: 'axis_index', axisName: ['model', 'data'] }, [['model', 'data']]);
  expect(Array.from(rt.get(idx))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  for (const a of [x, g, p, idx, m]) a.delete();
});

test("a program may run on this thread's lockstep executor instead (executor: 'here'): bitwise the threads' results, overlapping their runs", async () => {
  const m = rt.mesh([2, 4], ['data', 'model']);
  const host = seeded(8 * 320, 7);
  const x = rt.put(m, host, [8, 320], [['data', 'model']]);
  const programs = [
    rt.collectiveProgram(m, x, { op: 'psum', axisName: 'model' }, ['data']),
    rt.collectiveProgram(m, x, { op: 'all_gather', axisName: 'data', tiled: true, checkVma: false }, ['model']),
    rt.collectiveProgram(m, x, { op: 'psum_scatter', axisName: ['data', 'model'], scatterDimension: 1, tiled: true }, [null, ['data', 'model']]),
  ];
  try {
    // Every program on both, submitted together: threaded jobs and in-thread runs interleave.
    const stepped = vi.spyOn(InThreadExecutor.prototype, 'runSync');
    const runs = programs.flatMap((p) => [rt.runProgram(m, p, [x]), rt.runProgram(m, p, [x], { executor: 'here' })]);
    const outs = (await Promise.all(runs)).map(([o]) => o);
    expect(stepped).toHaveBeenCalledTimes(programs.length); // the 'here' runs, and only they, were stepped on this thread
    stepped.mockRestore();
    for (let i = 0; i < programs.length; i++) {
      const [threads, here] = [rt.get(outs[2 * i]), rt.get(outs[2 * i + 1])];
      expect(outs[2 * i + 1].shape()).toEqual(outs[2 * i].shape());
      expect(Buffer.from(here.buffer).equals(Buffer.from(threads.buffer)), `program ${i}`).toBe(true);
    }
    // The psum against the serial float32 sum over each row's four devices, in device order.
    const got = rt.get(outs[0]);
    for (let row = 0; row < 2; row++) {
      for (let j = 0; j < 320; j++) {
        let acc = host[row * 1280 + j];
        for (let d = 1; d < 4; d++) acc = Math.fround(acc + host[row * 1280 + d * 320 + j]);
        expect(got[row * 320 + j]).toBe(acc);
      }
    }
    for (const o of outs) o.delete();
    await expect(rt.runProgram(m, programs[0], [x], { executor: 'worker' })).rejects.toThrow(
      "runProgram: executor=\"worker\": this runtime runs programs on 'threads', or on 'here' (this thread)",
    );
  } finally {
    for (const p of programs) p.delete();
    x.delete();
    m.delete();
  }
});

test('bad input gets a categorised error naming the argument', async () => {
  expect(() => rt.put(mesh, new Float32Array(6), [6], ['data'])).toThrow(
    /ShardedArray: dimension 0 of shape \[6\] has size 6, which is not divisible by 8/,
  );
  try {
    rt.put(mesh, new Float32Array(6), [6], ['data']);
  } catch (e) {
    expect(e.name).toBe('ShardingError');
  }
  const x = rt.put(mesh, new Float32Array(8), [8], ['data']);
  await expect(rt.collective(mesh, x, { op: 'psum', axisName: 'model' }, [])).rejects.toThrow(
    /^Found an unbound axis name: model\. To fix this, please call psum under `jax\.shard_map`\. \(The enclosing shard_map's mesh is Mesh\('data': 8\)\.\)$/,
  );
  await expect(rt.collective(mesh, x, { op: 'ppermute', axisName: 'data', perm: [[0, 1], [3, 1]] }, ['data'])).rejects.toThrow(
    /destination 1 appears twice/,
  );
  await expect(rt.collective(mesh, x, { op: 'psum_scatter', axisName: 'data' }, ['data'])).rejects.toThrow(
    /must equal the axis size 8, got 1/,
  );
  expect(() => rt.mesh([2, 2], ['a', 'a'])).toThrow(/axis name 'a' is used twice/);
  // An out_spec that omits an axis the result varies along is an error (check_vma);
  // unchecked, the replicas disagree and get() says so.
  await expect(rt.collective(mesh, x, { op: 'axis_index', axisName: 'data' }, [])).rejects.toThrow(
    /axis_index: out_spec P\(\) omits mesh axis 'data', along which the result varies/,
  );
  const idx = await rt.collective(mesh, x, { op: 'axis_index', axisName: 'data', checkVma: false }, []);
  expect(() => rt.get(idx)).toThrow(/devices 0 and 1 should hold the same replica/);
  x.delete();
  idx.delete();
});

test('a failing device rejects the job with its id and message; the runtime stays usable', async () => {
  // Faults are injected by the test build of the module; the production one has no such hook.
  await expect(injectFault(rt, mesh, 3)).rejects.toThrow(/injectFault: the runtime is not of the test build/);
  const faulty = await loadTestDevices();
  const m = faulty.mesh([8], ['data']);
  for (const device of [0, 3, 7]) {
    await expect(injectFault(faulty, m, device)).rejects.toThrow(`device ${device}: injected failure on device ${device}`);
  }
  const x = faulty.put(m, new Float32Array(8).fill(2), [8], ['data']);
  const y = await faulty.collective(m, x, { op: 'psum', axisName: 'data' }, []);
  expect(Array.from(faulty.get(y))).toEqual([16]);
  faulty.terminate();
});

test("a program run many times in one job (the benchmarks' hook) is the test build's; it gives the one run's values", async () => {
  const psumOf = (runtime, m, x) => runtime.collectiveProgram(m, x, { op: 'psum', axisName: 'data' }, []);
  const x = rt.put(mesh, new Float32Array(8).fill(1), [8], ['data']);
  const program = psumOf(rt, mesh, x);
  await expect(runRepeated(rt, mesh, program, [x], 10)).rejects.toThrow(/runRepeated: the runtime is not of the test build/);
  program.delete();
  x.delete();
  const bench = await loadTestDevices();
  const m = bench.mesh([8], ['data']);
  const xs = Float32Array.from({ length: 8 }, (_, i) => i + 0.5);
  const y = bench.put(m, xs, [8], ['data']);
  const psum = psumOf(bench, m, y);
  const [out] = await runRepeated(bench, m, psum, [y], 500);
  expect(Array.from(bench.get(out))).toEqual([xs.reduce((a, b) => a + b)]); // exact: halves summed in float32
  await expect(runRepeated(bench, m, psum, [y], 0)).rejects.toThrow(/repeated: reps=0 must be >= 1/);
  out.delete();
  bench.terminate();
});

test.each(['trap', 'abort'])('a wasm %s on a device rejects every pending job, and a fresh runtime works', async (mode) => {
  const other = await loadTestDevices();
  const m = other.mesh([8], ['data']);
  const x = other.put(m, new Float32Array(8).fill(1), [8], ['data']);
  const jobs = [
    injectFault(other, m, 5, { mode }),
    other.collective(m, x, { op: 'psum', axisName: 'data' }, []),
    other.collective(m, x, { op: 'pmax', axisName: 'data' }, []),
  ];
  for (const j of jobs) await expect(j).rejects.toThrow(/the device runtime is gone: (a device worker crashed|the wasm runtime aborted)/);
  expect(other.deadReason).toMatch(/crashed|aborted/);
  expect(() => other.mesh([8], ['data'])).toThrow(/the device runtime is gone/);
  const fresh = await loadDevices();
  const m2 = fresh.mesh([8], ['data']);
  const x2 = fresh.put(m2, new Float32Array(8).fill(3), [8], ['data']);
  expect(Array.from(fresh.get(await fresh.collective(m2, x2, { op: 'psum', axisName: 'data' }, [])))).toEqual([24]);
  fresh.terminate();
});

test.each([1, 2, 4])('a runtime with %i devices runs meshes of that size', async (devices) => {
  const small = await loadDevices({ devices });
  const m = small.mesh([devices], ['x']);
  const host = Float32Array.from({ length: devices * 3 }, (_, i) => i + 1);
  const x = small.put(m, host, [devices * 3], ['x']);
  const y = await small.collective(m, x, { op: 'psum', axisName: 'x' }, []);
  const want = [0, 1, 2].map((i) => {
    let acc = 0;
    for (let d = 0; d < devices; d++) acc = Math.fround(acc + host[d * 3 + i]);
    return acc;
  });
  expect(Array.from(small.get(y))).toEqual(want);
  const big = small.mesh([8], ['data']);
  const z = small.put(big, new Float32Array(8), [8], ['data']);
  await expect(small.collective(big, z, { op: 'psum', axisName: 'data' }, [])).rejects.toThrow(
    /needs 8 devices but the runtime has/,
  );
  small.terminate();
});

test('deterministic: 100 repeats of a large psum are bitwise equal', async () => {
  const n = 1 << 16;
  const x = rt.put(mesh, seeded(8 * n, 99), [8 * n], ['data']);
  const first = rt.get(await rt.collective(mesh, x, { op: 'psum', axisName: 'data' }, []));
  for (let r = 0; r < 100; r++) {
    const y = await rt.collective(mesh, x, { op: 'psum', axisName: 'data' }, []);
    const got = rt.get(y);
    y.delete();
    expect(Buffer.from(got.buffer).equals(Buffer.from(first.buffer))).toBe(true);
  }
});

// A job's end reaches the main thread as a message from the worker of the
// device that ended it, handled by _settle. These drive _settle directly, as
// that message would: success resolves with the submit call's result; a
// failure rejects with the device's message (read from the heap, then
// freed) and releases the result.
test('a job settles from its completion message: resolves with its result, or rejects with the message and releases it', async () => {
  const result = { deleted: false, delete() { this.deleted = true; } };
  let id = 0;
  const jobs = rt._executor;
  const ok = jobs.submit((i) => ((id = i), result));
  expect(jobs._pending.has(id)).toBe(true);
  jobs._settle(id, 1, '', 0);
  await expect(ok).resolves.toBe(result);
  expect(result.deleted).toBe(false);

  const text = new TextEncoder().encode('device 2: boom\0');
  const msg = rt.Module._malloc(text.length);
  rt.Module.HEAPU8.set(text, msg);
  const failed = { deleted: false, delete() { this.deleted = true; } };
  const bad = jobs.submit((i) => ((id = i), failed));
  jobs._settle(id, 0, 'ValueError', msg);
  await expect(bad).rejects.toThrow(/device 2: boom/);
  expect(failed.deleted).toBe(true);
  expect(jobs._pending.size).toBe(0);
  // A stale completion (an id already settled) is ignored.
  jobs._settle(id, 1, '', 0);
  expect(jobs._inFlight).toBe(0);
});

test('more jobs than the pool holds wait in order; their inputs may be deleted meanwhile; a dying runtime rejects them', async () => {
  // 200 psums in flight: the pool holds 64, the rest wait in JS on clones of their inputs.
  const inputs = Array.from({ length: 200 }, (_, i) => rt.put(mesh, new Float32Array(8).fill(i), [8], ['data']));
  const jobs = inputs.map((x) => rt.collective(mesh, x, { op: 'psum', axisName: 'data' }, []));
  for (const x of inputs) x.delete();
  const outs = await Promise.all(jobs);
  outs.forEach((y, i) => expect(Array.from(rt.get(y))).toEqual([8 * i]));
  for (const y of outs) y.delete();
  expect(rt._executor._waiting.length).toBe(0);

  const other = await loadDevices();
  const m = other.mesh([8], ['data']);
  const x = other.put(m, new Float32Array(8).fill(1), [8], ['data']);
  const queued = Array.from({ length: 100 }, () => other.collective(m, x, { op: 'psum', axisName: 'data' }, []));
  const waiting = other._executor._waiting.length;
  expect(waiting).toBeGreaterThan(0);
  other.terminate();
  const settled = await Promise.allSettled(queued);
  // Jobs already in the pool may have finished first (a completion can even
  // arrive during a later submission); every waiting one is rejected.
  const rejected = settled.filter((s) => s.status === 'rejected');
  expect(rejected.length).toBeGreaterThanOrEqual(waiting);
  for (const r of rejected) expect(r.reason.message).toMatch(/the device runtime is gone: the runtime was terminated/);
  expect(settled.slice(-waiting).every((s) => s.status === 'rejected')).toBe(true);
  expect(other._executor._waiting.length).toBe(0);
});
