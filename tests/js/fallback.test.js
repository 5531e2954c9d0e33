// Without threads (as on a page that is not cross-origin isolated) the same
// programs run on one worker with the lockstep executor: bitwise the same
// outputs (and debug callbacks' values) as the threaded runtime, and init() says which it uses. The same
// executor on the calling thread (a blocking engine's: the checker's sandbox) too.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/seed_bits.mjs', import.meta.url));
const run = (mode) => JSON.parse(execFileSync(process.execPath, [script, mode], { encoding: 'utf8', timeout: 60000 }).trim().split('\n').pop());

test('the lockstep fallback gives bitwise the threaded outputs of both seed problems', () => {
  const threaded = run('threads');
  const lockstep = run('lockstep');
  const inThread = run('in-thread');
  expect(threaded.executor).toBe('threaded');
  expect(lockstep.executor).toBe('lockstep');
  expect(inThread.executor).toBe('lockstep');
  expect(lockstep.bits.length).toBe(5);
  expect(lockstep.bits).toEqual(threaded.bits);
  expect(inThread.bits).toEqual(threaded.bits);
  // Each device's block and psum, in device order, whatever runs the devices.
  expect(threaded.debug.map((d) => d.length)).toEqual(Array(8).fill(4));
  expect(lockstep.debug).toEqual(threaded.debug);
  expect(inThread.debug).toEqual(threaded.debug);
}, 120000);

test('the options name what runs the programs, and a wrong one is refused naming the valid ones', async () => {
  const { init, loadDevices } = await import('../../web/lib/index.js');
  await expect(loadDevices({ executor: 'lockstep' })).rejects.toThrow("loadDevices: executor=\"lockstep\" is not one of 'threads', 'worker', 'here'");
  await expect(loadDevices({ threads: false })).rejects.toThrow("loadDevices: unknown option 'threads'; the options are devices, memoryMB, executor, sources");
  await expect(init({ inThread: true })).rejects.toThrow("init: unknown option 'inThread'; the options are devices, memoryMB, executor, sources, blocking");
  // init names what runs the programs; where the lockstep executor runs follows from blocking, so no two options clash.
  await expect(init({ executor: 'worker' })).rejects.toThrow("init: executor=\"worker\" is not one of 'auto', 'threads', 'lockstep'");
});

test("the lockstep worker keeps a program's outputs: a chain of calls sends the input once and brings the result back once", () => {
  const n = 2 ** 18; // 1 MiB of float32
  const runs = 5;
  const resident = fileURLToPath(new URL('./fixtures/resident.mjs', import.meta.url));
  const out = JSON.parse(execFileSync(process.execPath, [resident, String(n), String(runs)], { encoding: 'utf8', timeout: 60000, maxBuffer: 2 ** 26 }).trim().split('\n').pop());
  // Only the first call's input (put on this thread) crosses; later calls name the worker's arrays.
  expect(out.perCall).toEqual(Array.from({ length: runs }, () => ({ toWorker: 4 * n, fromWorker: 0 })));
  expect(out.before).toBe('ValueError: addressableShards: the array is still in the lockstep worker that computed it; await arr.blockUntilReady() first');
  expect(out.afterRead).toEqual({ toWorker: 4 * n, fromWorker: 4 * n }); // one read brings it
  expect(out.afterReads).toEqual(out.afterRead); // later reads are local
  expect(out.concurrent).toBe(4 * n); // three reads at once, one transfer
  // Serial reference: each call, device d's block becomes 2 b_d + b_(d-1) (ring ppermute d -> d+1); all exact in float32.
  const block = n / 8;
  let x = Array.from({ length: n }, (_, i) => (i % 97) - 48);
  for (let r = 0; r < runs; r++) x = x.map((v, i) => 2 * v + x[(i - block + n) % n]);
  expect(out.values).toEqual(x);
  expect(out.shards.map((s) => s.index)).toEqual(Array.from({ length: 8 }, (_, d) => [[d * block, (d + 1) * block]]));
  expect(out.shards.flatMap((s) => s.data)).toEqual(x);
}, 120000);
