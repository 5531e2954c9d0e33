// Without threads (as on a page that is not cross-origin isolated) the same
// programs run on one worker with the lockstep executor: bitwise the same
// outputs as the threaded runtime, and init() says which it uses. The same
// executor on the calling thread (inThread: the checker's sandbox) too.
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
}, 120000);

test('inThread is refused with threads, naming what it needs', async () => {
  const { loadDevices } = await import('../../web/lib/index.js');
  await expect(loadDevices({ threads: true, inThread: true })).rejects.toThrow(
    "loadDevices: inThread runs the devices on the calling thread; it needs threads: false, in a worker or Node, never on a page's main thread",
  );
});
