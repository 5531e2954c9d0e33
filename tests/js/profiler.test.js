// sl.profiler.startTrace / stopTrace: what each device did in the ring
// all-reduce (8 devices, 7 ppermute rounds and 7 adds in one shard_map
// body), with the threaded runtime (with waits at the barriers), the
// lockstep worker and the in-thread lockstep executor (the same equations,
// no waits), and a blocking engine (where both calls return at once); the
// recording changes no result. Each mode runs in a process of its own.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/ring_timeline.mjs', import.meta.url));
const run = (mode) => JSON.parse(execFileSync(process.execPath, [script, mode], { encoding: 'utf8', timeout: 60000 }).trim().split('\n').pop());

// Serial reference: every row of the result is the sum over the 8 blocks (2 rows each) at its row's position in its block.
const x = Array.from({ length: 16 }, (_, i) => Array.from({ length: 3 }, (_, j) => i * 3 + j));
const expected = x.flatMap((_, i) => x[0].map((_, j) => [0, 1, 2, 3, 4, 5, 6, 7].reduce((t, b) => t + x[2 * b + (i % 2)][j], 0)));

for (const mode of ['threads', 'lockstep', 'in-thread', 'blocking']) {
  test(`${mode}: each of the 8 devices ran one body with 7 ppermute rounds and 7 adds`, () => {
    const r = run(mode);
    expect(r.reportedExecutor).toBe(r.executor);
    expect(r.perDevice.length).toBe(8);
    for (const d of r.perDevice) {
      expect(d).toMatchObject({ ppermute: 7, add: 7, bodies: 1, ownAddsUp: true });
    }
    const waits = r.perDevice.reduce((t, d) => t + d.waits, 0);
    if (r.executor === 'lockstep') expect(waits).toBe(0);
    else expect(waits).toBeGreaterThan(0); // 8 device threads on fewer cores: someone always waits
    expect(r.dropped).toBe(0);
    expect(r.errors).toEqual([
      'ValueError: profiler.startTrace: a trace is already being recorded; call profiler.stopTrace() first',
      'ValueError: profiler.stopTrace: no trace is being recorded; call profiler.startTrace() first',
    ]);
    expect(r.sum).toEqual(expected);
    if (mode === 'blocking') expect(r.blockingResult).toBe(true);
  }, 120000);
}
